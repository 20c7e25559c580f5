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

/** "Your event is cancelled": a host cancelled through their edit link (`cause` names that cancellation: one message per cause). */
export function cancellationConfirmedMessage(config: Pick<Config, "siteUrl" | "basePath">, submission: Pick<Submission, "hostEmail" | "language">, cancellation: { cause: string; eventKey: string; eventName: string; note: string }): NewMessage {
  return {
    kind: "cancellation_confirmed",
    dedupeKey: `${cancellation.cause}:confirmed`,
    recipient: submission.hostEmail,
    language: submission.language,
    params: { eventName: cancellation.eventName, publicUrl: eventPageUrl(config, cancellation.eventKey, cancellation.eventName), note: cancellation.note },
  };
}

/** What a team alert is about: a visitor's "cancelled" report or a host's cancellation; `cause` names it (one alert per cause). */
export interface TeamAlert {
  source: "report" | "host";
  cause: string;
  eventKey: string;
  eventName: string;
  note?: string;
}

/**
 * The alert to the night team (TEAM_EMAIL) in the site's default language, or undefined when no
 * team address is configured. It names the event, never the reporter (no text, address or IP);
 * the console link is written out when it is rendered.
 */
export function teamAlertMessage(config: Pick<Config, "teamEmail" | "defaultLanguage">, alert: TeamAlert): NewMessage | undefined {
  if (!config.teamEmail) return undefined;
  return {
    kind: "team_alert",
    dedupeKey: `${alert.cause}:team-alert`,
    recipient: config.teamEmail,
    language: config.defaultLanguage,
    params: { source: alert.source, eventKey: alert.eventKey, eventName: alert.eventName, ...(alert.note ? { note: alert.note } : {}) },
  };
}
