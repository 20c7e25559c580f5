// Visitor sign-in (POST /api/auth/verify and the sign-in form): the checks of
// docs/auth-and-admin.md, "Visitor sign-in", in their fixed order, then the user upsert and a
// signed user token.

import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { RateLimiter } from "../rate-limit/fixed-window.ts";
import type { SigningKey } from "./jwt-key.ts";
import { limiterParts, RATE_LIMITS } from "../rate-limit/fixed-window.ts";
import { isPlainObject } from "../http/responses.ts";
import { hasControlCharacter } from "../storable-text.ts";
import { dbErrorSummary, isDatabaseUnreachable } from "../db/errors.ts";
import { normaliseEmail, upsertUser, type VisitorDetails } from "./users.ts";
import { signUserToken, USER_TOKEN } from "./user-token.ts";
import { invalid, limited, refused, type Invalid, type Limited, type Refused } from "../outcome.ts";

/** Texts of the sign-in answers (the API and the form show the same words). */
export const SIGN_IN_MESSAGES = {
  invalidPayload: "Invalid request payload",
  invalidEmail: "Valid email address is required",
  shortFirstName: "First name must be at least 2 characters",
  shortLastName: "Last name must be at least 2 characters",
  longFirstName: "First name must be at most 80 characters",
  longLastName: "Last name must be at most 80 characters",
  invalidConsent: "Consent must be true or false",
  invalidSource: "Source must be text of at most 80 characters",
  controlCharacters: "Text must not contain control characters",
  consentRequired: "Consent is required",
  tooMany: "Too many attempts. Please try again shortly.",
  failed: "Verification failed. Please try again.",
  crossSite: "Sign-in is only possible from the finder site itself.",
  // One answer whether the address was new or known: a sign-in must not tell a stranger which
  // addresses have an account.
  verified: "User verified",
} as const;

const NAME_MIN = 2;
const NAME_MAX = 80;
const SOURCE_MAX = 80;

/**
 * The outcome of one sign-in attempt: the visitor's token, or a refusal (invalid, naming the field
 * unless the whole body is wrong; limited; failed; unavailable while the database is down).
 */
export type SignInOutcome =
  | { ok: true; email: string; created: boolean; token: string; maxAge: number }
  | Refused<"invalid">
  | Invalid
  | Limited
  | Refused<"failed" | "unavailable">;

type Parsed = { ok: true; details: VisitorDetails } | { ok: false; field: string; error: string };

function name(value: unknown, field: "firstName" | "lastName"): { ok: true; value?: string } | { ok: false; field: string; error: string } {
  const first = field === "firstName";
  if (value === undefined || value === null) return { ok: true };
  if (typeof value !== "string") return { ok: false, field, error: first ? SIGN_IN_MESSAGES.shortFirstName : SIGN_IN_MESSAGES.shortLastName };
  if (hasControlCharacter(value)) return { ok: false, field, error: SIGN_IN_MESSAGES.controlCharacters };
  const trimmed = value.trim();
  // A blank field of a form means "not given".
  if (trimmed.length === 0) return { ok: true };
  if (trimmed.length < NAME_MIN) return { ok: false, field, error: first ? SIGN_IN_MESSAGES.shortFirstName : SIGN_IN_MESSAGES.shortLastName };
  if (trimmed.length > NAME_MAX) return { ok: false, field, error: first ? SIGN_IN_MESSAGES.longFirstName : SIGN_IN_MESSAGES.longLastName };
  return { ok: true, value: trimmed };
}

/** Validates a verify body (already parsed JSON, or undefined when it was not JSON). */
export function parseSignIn(body: unknown): Parsed {
  if (!isPlainObject(body)) return { ok: false, field: "body", error: SIGN_IN_MESSAGES.invalidPayload };
  const email = normaliseEmail(body.email);
  if (!email) return { ok: false, field: "email", error: SIGN_IN_MESSAGES.invalidEmail };
  const firstName = name(body.firstName, "firstName");
  if (!firstName.ok) return firstName;
  const lastName = name(body.lastName, "lastName");
  if (!lastName.ok) return lastName;
  if (body.consent !== undefined && body.consent !== null && typeof body.consent !== "boolean") {
    return { ok: false, field: "consent", error: SIGN_IN_MESSAGES.invalidConsent };
  }
  let source: string | undefined;
  if (body.source !== undefined && body.source !== null) {
    if (typeof body.source !== "string" || body.source.trim().length > SOURCE_MAX) return { ok: false, field: "source", error: SIGN_IN_MESSAGES.invalidSource };
    if (hasControlCharacter(body.source)) return { ok: false, field: "source", error: SIGN_IN_MESSAGES.controlCharacters };
    source = body.source.trim() || undefined;
  }
  const consent = typeof body.consent === "boolean" ? body.consent : undefined;
  return { ok: true, details: { email, firstName: firstName.value, lastName: lastName.value, consent, source } };
}

/** What a visitor sign-in needs. */
export interface SignInDeps {
  config: Config;
  signingKey: SigningKey;
  db: Db;
  limiter: RateLimiter;
  log: Logger;
  now: () => Date;
}

/** The refusal of a wrong field, naming it; a wrong body as a whole names no field. */
function invalidField(field: string, error: string): Refused<"invalid"> | Invalid {
  return field === "body" ? refused("invalid", error) : invalid(error, [{ field, message: error }]);
}

/**
 * Runs a sign-in: per-IP limit, body checks, email+IP limit, consent, then upsert and token.
 * Both limits fail open: an unavailable limiter lets a sign-in through.
 */
export async function signInVisitor(deps: SignInDeps, body: unknown, ip: string): Promise<SignInOutcome> {
  const ipKey = limiterParts.ip(ip);
  const perIp = await deps.limiter.check(RATE_LIMITS.authVerifyIp, [ipKey], { failOpen: true });
  if (perIp.status === "blocked") return limited(SIGN_IN_MESSAGES.tooMany, perIp.retryAfter);

  const parsed = parseSignIn(body);
  if (!parsed.ok) return invalidField(parsed.field, parsed.error);
  const { details } = parsed;

  const perEmail = await deps.limiter.check(RATE_LIMITS.authVerifyEmailIp, [limiterParts.email(details.email), ipKey], { failOpen: true });
  if (perEmail.status === "blocked") return limited(SIGN_IN_MESSAGES.tooMany, perEmail.retryAfter);

  if (details.consent === false) return invalidField("consent", SIGN_IN_MESSAGES.consentRequired);

  const now = deps.now();
  try {
    const { created } = await upsertUser(deps.db, details, now);
    const { token } = await signUserToken(deps.signingKey, details.email, now);
    return { ok: true, email: details.email, created, token, maxAge: USER_TOKEN.ttlSeconds };
  } catch (error) {
    if (isDatabaseUnreachable(error)) {
      deps.log.warn("auth", "Visitor verification unavailable: the database is down", { error: dbErrorSummary(error) });
      // The same words as a failure; the refusal's Retry-After says when to try again.
      return refused("unavailable", SIGN_IN_MESSAGES.failed);
    }
    // The source is the visitor's own text: only whether one was given is logged.
    deps.log.error("auth", "Visitor verification failed", { hasSource: details.source !== undefined }, error);
    return refused("failed", SIGN_IN_MESSAGES.failed);
  }
}
