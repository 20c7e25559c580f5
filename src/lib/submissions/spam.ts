// Spam signals of a host submission: a filled honeypot, or a form completed in
// under 4 seconds. Either one stores the submission as declined while the host sees success.

/** Quickest believable completion of the form. */
export const MIN_COMPLETION_SECONDS = 4;

export interface SpamSignals {
  honeypotFilled: boolean;
  completedTooFast: boolean;
  /** Seconds from formStartedAt to now, two decimals; null when unknown or in the future. */
  completionSeconds: number | null;
  reasons: string[];
}

/** True when the honeypot carries anything but nothing (absent, null, false or blank text). */
function honeypotFilled(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (typeof value === "string") return value.trim() !== "";
  return true;
}

/** Evaluates both signals; an unparseable or future formStartedAt gives no signal. */
export function evaluateSpamSignals(honeypot: unknown, formStartedAt: unknown, now: Date): SpamSignals {
  let elapsedMs: number | null = null;
  if (typeof formStartedAt === "string" && formStartedAt.length <= 64) {
    const started = Date.parse(formStartedAt.trim());
    if (Number.isFinite(started) && started <= now.getTime()) elapsedMs = now.getTime() - started;
  }
  const completionSeconds = elapsedMs === null ? null : Math.round(elapsedMs / 10) / 100;
  const filled = honeypotFilled(honeypot);
  const tooFast = elapsedMs !== null && elapsedMs < MIN_COMPLETION_SECONDS * 1000;
  const reasons: string[] = [];
  if (filled) reasons.push("honeypot_filled");
  if (tooFast) reasons.push("completed_too_fast");
  return { honeypotFilled: filled, completedTooFast: tooFast, completionSeconds, reasons };
}
