// The messages a submission queues (see docs/email.md, "Messages"): one builder per cause, with the
// dedupe key that keeps one message per cause and the recipient's language. The order messages are
// built beside the orders (lib/placements/order-mail.ts).

import type { Config } from "../config.ts";
import { publicUrl } from "../config.ts";
import type { eventSubmissions } from "../db/schema/index.ts";
import { slugify } from "../sheet/keys.ts";
import { sharePath } from "../links.ts";
import type { NewMessage } from "./outbox.ts";

type Submission = Pick<typeof eventSubmissions.$inferSelect, "id" | "hostEmail" | "language" | "payload">;

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** "We received your event": queued with the submission (not for one declined as spam). */
export function submissionReceivedMessage(submission: Submission): NewMessage {
  return {
    kind: "submission_received",
    dedupeKey: `submission:${submission.id}:received`,
    recipient: submission.hostEmail,
    language: submission.language,
    params: { eventName: text(submission.payload.eventName), date: text(submission.payload.date) },
  };
}

/** "Your event is live", with the public link (the edit link slot stays empty until that feature fills it). */
export function submissionAcceptedMessage(config: Pick<Config, "siteUrl" | "basePath">, submission: Submission, eventKey: string): NewMessage {
  const eventName = text(submission.payload.eventName);
  return {
    kind: "submission_accepted",
    dedupeKey: `submission:${submission.id}:accepted`,
    recipient: submission.hostEmail,
    language: submission.language,
    params: { eventName, publicUrl: publicUrl(config, sharePath({ eventKey, slug: slugify(eventName) || "event" })) },
  };
}

/** "Your event was not published", with the moderator's reason and note. */
export function submissionDeclinedMessage(submission: Submission & { reviewReason: string | null; reviewNote: string | null }): NewMessage {
  return {
    kind: "submission_declined",
    dedupeKey: `submission:${submission.id}:declined`,
    recipient: submission.hostEmail,
    language: submission.language,
    params: { eventName: text(submission.payload.eventName), reason: submission.reviewReason ?? "other", note: submission.reviewNote },
  };
}
