// The submissions switch: KV `events:submissions:settings:v1`
// = {version:1, enabled, updatedAt, updatedBy}. Missing or invalid means open. Toggling it
// revalidates / and /submit-event, which show the closed notice.

import type { Kv } from "../kv.ts";
import type { InvalidationBus } from "../serving/invalidation.ts";

export const SUBMISSION_SETTINGS_KEY = "events:submissions:settings:v1";

/** The paths whose render depends on the switch. */
export const SUBMISSION_SETTINGS_PATHS = ["/", "/submit-event"];

export interface SubmissionSettings {
  version: 1;
  enabled: boolean;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** What pages and public callers may see. */
export interface PublicSubmissionSettings {
  enabled: boolean;
  updatedAt: string | null;
}

const DEFAULT_SETTINGS: SubmissionSettings = { version: 1, enabled: true, updatedAt: null, updatedBy: null };

/** Reads the switch; missing or invalid → open. Throws when the store cannot be read (callers answer 503). */
export async function readSubmissionSettings(kv: Pick<Kv, "get">): Promise<SubmissionSettings> {
  const value = await kv.get<unknown>(SUBMISSION_SETTINGS_KEY);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ...DEFAULT_SETTINGS };
  const record = value as Record<string, unknown>;
  if (record.version !== 1 || typeof record.enabled !== "boolean") return { ...DEFAULT_SETTINGS };
  return {
    version: 1,
    enabled: record.enabled,
    updatedAt: typeof record.updatedAt === "string" ? record.updatedAt : null,
    updatedBy: typeof record.updatedBy === "string" ? record.updatedBy : null,
  };
}

/** The public view {enabled, updatedAt}. */
export function publicSubmissionSettings(settings: SubmissionSettings): PublicSubmissionSettings {
  return { enabled: settings.enabled, updatedAt: settings.updatedAt };
}

/** Opens or closes submissions, then revalidates / and /submit-event. */
export async function setSubmissionSettings(
  deps: { kv: Pick<Kv, "set">; invalidation: InvalidationBus; now: () => Date },
  enabled: boolean,
  updatedBy: string,
): Promise<{ settings: SubmissionSettings; message: string }> {
  const settings: SubmissionSettings = { version: 1, enabled, updatedAt: deps.now().toISOString(), updatedBy };
  await deps.kv.set(SUBMISSION_SETTINGS_KEY, settings);
  await deps.invalidation.invalidate({ paths: SUBMISSION_SETTINGS_PATHS });
  return { settings, message: enabled ? "Event submissions are now open" : "Event submissions are now closed" };
}
