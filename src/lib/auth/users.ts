// Visitor accounts (see docs/auth-and-admin.md, "Visitor sign-in"): one row per normalised email
// with counters and first/last seen, plus one verification-log row per successful sign-in.

import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { users, userVerifications } from "../db/schema/index.ts";

/** Longest accepted email address. */
export const MAX_EMAIL_LENGTH = 254;

/** The source recorded when the caller does not name one. */
export const DEFAULT_SIGN_IN_SOURCE = "finder-auth";

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Control characters (NUL, TAB, CR, LF, DEL...): never part of an address, even at its ends. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Trims and lower-cases an email; undefined unless it has the accepted shape and length and no
 * control character anywhere (a NUL cannot be stored; CR/LF/TAB have no place in an address).
 */
export function normaliseEmail(raw: unknown): string | undefined {
  if (typeof raw !== "string") return undefined;
  // Checked before trimming too, so a megabyte of spaces is not worth processing.
  if (raw.length > MAX_EMAIL_LENGTH * 4) return undefined;
  if (CONTROL_CHARACTERS.test(raw)) return undefined;
  const email = raw.trim().toLowerCase();
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_SHAPE.test(email) ? email : undefined;
}

/** What a verify call submits; optional fields are undefined when not given. */
export interface VisitorDetails {
  email: string;
  firstName?: string;
  lastName?: string;
  consent?: boolean;
  source?: string;
}

/**
 * Creates the user or updates it: a re-verify moves last_seen_at, adds one to the count and
 * overwrites names, consent and source only when given; first_seen_at never changes.
 * Logs the verification in the same transaction. Returns whether the user is new.
 */
export async function upsertUser(db: Db, details: VisitorDetails, now: Date): Promise<{ created: boolean }> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(users)
      .values({
        email: details.email,
        firstName: details.firstName ?? null,
        lastName: details.lastName ?? null,
        consent: details.consent ?? null,
        source: details.source ?? DEFAULT_SIGN_IN_SOURCE,
        firstSeenAt: now,
        lastSeenAt: now,
        verificationCount: 1,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: users.email,
        set: {
          lastSeenAt: now,
          updatedAt: now,
          verificationCount: sql`${users.verificationCount} + 1`,
          ...(details.firstName !== undefined ? { firstName: details.firstName } : {}),
          ...(details.lastName !== undefined ? { lastName: details.lastName } : {}),
          ...(details.consent !== undefined ? { consent: details.consent } : {}),
          ...(details.source !== undefined ? { source: details.source } : {}),
        },
      })
      // xmax is 0 only for a row this statement inserted.
      .returning({ created: sql<boolean>`(xmax = 0)` });
    await tx.insert(userVerifications).values({
      email: details.email,
      firstName: details.firstName ?? null,
      lastName: details.lastName ?? null,
      consent: details.consent ?? null,
      source: details.source ?? DEFAULT_SIGN_IN_SOURCE,
      submittedAt: now,
    });
    return { created: rows[0]?.created === true };
  });
}
