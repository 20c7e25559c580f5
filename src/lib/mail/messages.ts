// The messages a submission queues (see docs/email.md, "Messages"): one builder per cause, with the
// dedupe key that keeps one message per cause and the recipient's language. The order messages are
// built beside the orders (lib/placements/order-mail.ts).

import type { Config } from "../config.ts";
import { publicUrl } from "../config.ts";
import type { eventSubmissions } from "../db/schema/index.ts";
import { slugify } from "../sheet/keys.ts";
import { sharePath } from "../links.ts";
import type { NewMessage } from "./outbox.ts";
import type { ChangeLine } from "./templates.ts";

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

/** The public page of an accepted event. */
function eventPageUrl(config: Pick<Config, "siteUrl" | "basePath">, eventKey: string, eventName: string): string {
  return publicUrl(config, sharePath({ eventKey, slug: slugify(eventName) || "event" }));
}

/** "Your event is live", with the public link and the host's private edit link (named by its id, written out at send time). */
export function submissionAcceptedMessage(config: Pick<Config, "siteUrl" | "basePath">, submission: Submission, eventKey: string, editLinkId: string): NewMessage {
  const eventName = text(submission.payload.eventName);
  return {
    kind: "submission_accepted",
    dedupeKey: `submission:${submission.id}:accepted`,
    recipient: submission.hostEmail,
    language: submission.language,
    params: { eventName, publicUrl: eventPageUrl(config, eventKey, eventName), editLinkId },
  };
}

/** "Here is your new edit link": a moderator issued one (the earlier ones stopped working). */
export function editLinkIssuedMessage(submission: Submission, linkId: string): NewMessage {
  return {
    kind: "edit_link_issued",
    dedupeKey: `editlink:${linkId}:issued`,
    recipient: submission.hostEmail,
    language: submission.language,
    params: { eventName: text(submission.payload.eventName), editLinkId: linkId },
  };
}

type Proposal = { id: string; eventKey: string; changes: Record<string, { before: string; after: string }> };

function changeLines(proposal: Proposal): ChangeLine[] {
  return Object.entries(proposal.changes).map(([field, change]) => ({ field, before: change.before, after: change.after }));
}

/** "Your changes are published", with each field old → new and the public link. */
export function changesAcceptedMessage(config: Pick<Config, "siteUrl" | "basePath">, submission: Submission, proposal: Proposal, title?: string): NewMessage {
  const eventName = title || text(submission.payload.eventName);
  return {
    kind: "changes_accepted",
    dedupeKey: `changes:${proposal.id}:accepted`,
    recipient: submission.hostEmail,
    language: submission.language,
    params: { eventName, publicUrl: eventPageUrl(config, proposal.eventKey, eventName), changes: changeLines(proposal) },
  };
}

/** "Your changes were not published", with the moderator's reason. */
export function changesRefusedMessage(submission: Submission, proposal: Proposal & { reviewReason: string | null }, title?: string): NewMessage {
  return {
    kind: "changes_refused",
    dedupeKey: `changes:${proposal.id}:refused`,
    recipient: submission.hostEmail,
    language: submission.language,
    params: { eventName: title || text(submission.payload.eventName), reason: proposal.reviewReason ?? "", changes: changeLines(proposal) },
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
