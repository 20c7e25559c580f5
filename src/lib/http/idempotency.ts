// Idempotency keys of submissions and reports (docs/public-pages.md, "Idempotency keys"): a retry
// of the same request is the same request. The key comes in the `Idempotency-Key` header (API
// clients) or in the `idempotencyKey` field of the form (static/submit-event.js and
// static/report.js stamp one per form); it is stored, unique, with the row it created, in the same
// transaction, with a digest of the request. A second request with the key and the same body gets
// the first one's answer without creating anything or counting against a rate limit; with another
// body it is refused (409). A key lives as long as its row.

import { sha256Hex } from "../crypto.ts";
import { isPlainObject } from "./responses.ts";

/** The request header an API client names its key in. */
export const IDEMPOTENCY_HEADER = "idempotency-key";
/** The form field (and JSON field) the browser's forms send their key in. */
export const IDEMPOTENCY_FIELD = "idempotencyKey";
/** A key: 16 to 100 characters among letters, digits, `-`, `_`, `.` and `:` (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{16,100}$/;

/** Texts of the refusals. */
export const IDEMPOTENCY_MESSAGES = {
  invalid: "Idempotency-Key must be 16 to 100 letters, digits or - _ . :",
  reused: "This Idempotency-Key was already used with another request",
} as const;

/** A request's key and the digest of what it asks. */
export interface IdempotentRequest {
  key: string;
  digest: string;
}

/** The key of a request, none, or `invalid` (a key that does not match IDEMPOTENCY_KEY_PATTERN). */
export type IdempotencyReading = { ok: true; request?: IdempotentRequest } | { ok: false };

/** JSON with object keys sorted at every level, so the same fields in another order digest alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Reads the key of a request (the header first, then the body's field) and digests the body
 * without it, together with `scope` (what the request is about, such as the reported event).
 */
export function readIdempotency(header: string | null | undefined, body: unknown, scope = ""): IdempotencyReading {
  const field = isPlainObject(body) ? body[IDEMPOTENCY_FIELD] : undefined;
  const raw = header ?? (typeof field === "string" && field !== "" ? field : undefined);
  if (raw === undefined) return { ok: true };
  const key = raw.trim();
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) return { ok: false };
  const rest = isPlainObject(body) ? { ...body, [IDEMPOTENCY_FIELD]: undefined } : body;
  return { ok: true, request: { key, digest: sha256Hex(`${scope}\n${canonicalJson(rest)}`) } };
}

/** What a stored row says of a retry: the same request (`replay`) or another one under the same key (`reused`). */
export function replayOf(stored: { requestDigest: string | null }, request: IdempotentRequest): "replay" | "reused" {
  return stored.requestDigest === request.digest ? "replay" : "reused";
}

/** True for a unique violation on the idempotency key's index (two requests with one key at once). */
export function isIdempotencyConflict(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint_name: constraint, message } = e as { code?: unknown; constraint_name?: unknown; message?: unknown };
    if (code === "23505" && (typeof constraint !== "string" || constraint.endsWith("idempotency_key_idx"))) return true;
    if (typeof message === "string" && message.includes("idempotency_key_idx")) return true;
  }
  return false;
}
