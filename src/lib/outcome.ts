// What a lib function answers when it cannot do what was asked: the one failure shape of lib. A
// refusal names what happened in domain terms, never an HTTP status, and lib returns it rather than
// throwing. The api and pages layers turn a reason into a status with one mapping (`statusOf` in
// http/responses.ts) and answer it as JSON, an HTML page or an htmx fragment with the helpers
// beside it, so the same refusal is a 404 in JSON and in HTML alike. test/lib/failure-shape.test.ts
// fails on an HTTP status, a `new Response` or a thrown HTTP error in lib outside lib/http and
// lib/serving.

/** Why an action was refused. */
export type Refusal =
  /** The input is wrong; sending the same again fails again. */
  | "invalid"
  /** No credential was given, or the one given opens nothing. */
  | "unauthorized"
  /** A credential was given but does not open this resource. */
  | "forbidden"
  /** The thing named does not exist (or is not visible to the caller). */
  | "not_found"
  /** It existed but is no longer there (a revoked link, an event taken off the calendar). */
  | "gone"
  /** The current state does not allow it (already done, stale, someone else got there first). */
  | "conflict"
  /** Too many attempts: the refusal carries `retryAfter` (seconds) and trying then may work. */
  | "limited"
  /** A dependency is down or not configured; trying later may work. */
  | "unavailable"
  /** Our own fault: logged where it happened, shown as a plain failure. */
  | "failed";

/** A refused action with the message the caller may show. */
export interface Refused<R extends Refusal = Refusal> {
  ok: false;
  reason: R;
  error: string;
}

/** A refusal for too many attempts, with when (seconds) the caller may try again. */
export type Limited = Refused<"limited"> & { retryAfter: number };

/** A refused action; `extra` carries what the caller needs to show it (conflicts, issues). */
export function refused<R extends Refusal, X extends object = {}>(reason: R, error: string, extra?: X): Refused<R> & X {
  return { ok: false, reason, error, ...(extra ?? ({} as X)) };
}

/** A refusal for too many attempts: the message and when (seconds) the caller may try again. */
export function limited<X extends object = {}>(error: string, retryAfter: number, extra?: X): Limited & X {
  return refused("limited", error, { retryAfter, ...(extra ?? ({} as X)) });
}

/** A refused field of the input, named for the answer. */
export interface FieldIssue {
  field: string;
  message: string;
}

/** A refusal of invalid input, naming each refused field. */
export type Invalid<I extends FieldIssue = FieldIssue> = Refused<"invalid"> & { issues: I[] };

/** A refusal of invalid input: the message and the refused fields. */
export function invalid<I extends FieldIssue>(error: string, issues: I[]): Invalid<I> {
  return refused("invalid", error, { issues });
}
