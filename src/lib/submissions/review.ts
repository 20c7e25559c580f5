// The moderation card's review of each listed submission (see docs/console.md, "Moderation"):
// the sanity checks of sanity.ts and the likely duplicates among the listed events and the other
// submissions of the same dates, each with a link.

import { inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { eventSubmissions } from "../db/schema/index.ts";
import type { LiveEvent } from "../sheet/types.ts";
import { pageHref, sharePath } from "../links.ts";
import type { FestivalWindow } from "../events/festival-window.ts";
import { likelyDuplicates, sanityIssues, type DuplicateCandidate, type SubmissionReview } from "./sanity.ts";
import type { SubmissionRecord } from "./moderation.ts";

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** Where the console shows a submission: its status tab, scrolled to its item. */
export function submissionHref(submission: Pick<SubmissionRecord, "id" | "status">): string {
  return `/admin/content?status=${encodeURIComponent(submission.status)}#submission-${submission.id}`;
}

/** The review of each submission by id; `events` are the listed (live) events. */
export async function reviewSubmissions(db: Db, submissions: readonly SubmissionRecord[], events: readonly LiveEvent[], window: FestivalWindow): Promise<Map<string, SubmissionReview>> {
  const dates = [...new Set(submissions.map((s) => text(s.payload.date)).filter(Boolean))];
  const others = dates.length
    ? await db
        .select({ id: eventSubmissions.id, status: eventSubmissions.status, payload: eventSubmissions.payload })
        .from(eventSubmissions)
        .where(inArray(sql<string>`${eventSubmissions.payload}->>'date'`, dates))
        .limit(2000)
    : [];
  const candidates: DuplicateCandidate[] = [
    ...events.filter((e) => dates.includes(e.date)).map((e) => ({ kind: "event" as const, id: e.eventKey, name: e.eventName, date: e.date, startTime: e.time, location: e.location, href: pageHref(sharePath(e)) })),
    ...others
      .filter((o) => !(o.status === "declined"))
      .map((o) => ({ kind: "submission" as const, id: o.id, name: text(o.payload.eventName), date: text(o.payload.date), startTime: text(o.payload.startTime), location: text(o.payload.location), href: submissionHref(o as Pick<SubmissionRecord, "id" | "status">) })),
  ];
  const reviews = new Map<string, SubmissionReview>();
  for (const s of submissions) {
    const p = s.payload;
    const subject = { id: s.id, name: text(p.eventName), date: text(p.date), startTime: text(p.startTime), location: text(p.location) };
    // An accepted submission is its own listed event: not a duplicate of itself.
    const own = s.acceptedEventKey;
    reviews.set(s.id, { issues: sanityIssues(p, window), duplicates: likelyDuplicates(subject, candidates).filter((c) => !(c.kind === "event" && c.id === own)) });
  }
  return reviews;
}
