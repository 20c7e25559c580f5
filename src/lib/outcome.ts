// What a lib function answers when it cannot do what was asked. It names what happened in domain
// terms, never an HTTP status: the api and pages layers turn a reason into a status with one
// mapping (`statusOf` in http/responses.ts), so the same refusal is a 404 in JSON and in HTML alike.

/** Why an action was refused. */
export type Refusal =
  /** The input is wrong; sending the same again fails again. */
  | "invalid"
  /** A credential was given but does not open this resource. */
  | "forbidden"
  /** The thing named does not exist (or is not visible to the caller). */
  | "not_found"
  /** It existed but is no longer there (a revoked link, an event taken off the calendar). */
  | "gone"
  /** The current state does not allow it (already done, stale, someone else got there first). */
  | "conflict"
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

/** A refused action; `extra` carries what the caller needs to show it (conflicts, issues). */
export function refused<R extends Refusal, X extends object = {}>(reason: R, error: string, extra?: X): Refused<R> & X {
  return { ok: false, reason, error, ...(extra ?? ({} as X)) };
}
