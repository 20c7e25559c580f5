// Every 5 seconds: send the due messages of the email outbox (see docs/email.md, "Delivery").
// Without SMTP_URL nothing is sent and messages stay queued.

import type { Deps } from "../deps.ts";
import type { DrainOutcome } from "../lib/mail/worker.ts";

/** Drains the outbox once (the worker logs a line when something was sent or failed). */
export function sendOutbox(deps: Pick<Deps, "outbox">): Promise<DrainOutcome> {
  return deps.outbox.drain();
}
