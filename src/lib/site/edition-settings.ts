// The edition windows the team sets in the console (see docs/editions.md, "The window setting"):
// kept in KV as one record of windows by year, each year edited on its own inside one atomic update
// (saving 2027 never rewrites 2026), and read back into the process's copy (deps.editions) that
// every page and check asks synchronously. A save drops every cached render, since the window
// decides what the homepage lists, and tells the other instances through the invalidation bus.

import type { Kv } from "../kv.ts";
import type { Logger } from "../logger.ts";
import type { Invalidation, InvalidationBus } from "../serving/invalidation.ts";
import { HOMEPAGE } from "../serving/invalidation.ts";
import { EDITION_YEARS, editionOf, windowProblem, type Edition, type EditionWindow, type EditionWindows } from "../events/editions.ts";
import { invalid, type Invalid } from "../outcome.ts";

/** KV key of the edition windows. */
export const EDITIONS_KV_KEY = "site:editions:v1";
/** Render-cache tag every render that depends on the edition windows carries (all of them, in practice). */
export const EDITIONS_CACHE_TAG = "editions";

/** The stored record. */
export interface EditionSettings {
  version: 1;
  windows: EditionWindows;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** The process's copy of the windows, read at start and after every save (here or on another instance). */
export interface KeptEditions {
  windows: EditionWindows;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The stored value as settings: windows that no longer pass the rules are dropped (their year takes the default). */
export function readEditionValue(value: unknown): EditionSettings {
  const windows: Record<string, EditionWindow> = {};
  const record = isRecord(value) ? value : {};
  const stored = isRecord(record.windows) ? record.windows : {};
  for (const [year, window] of Object.entries(stored)) {
    if (!isRecord(window)) continue;
    const candidate = { from: String(window.from ?? ""), to: String(window.to ?? ""), night: String(window.night ?? "") };
    if (windowProblem(Number(year), candidate) === null) windows[year] = candidate;
  }
  return {
    version: 1,
    windows,
    updatedAt: typeof record.updatedAt === "string" ? record.updatedAt : null,
    updatedBy: typeof record.updatedBy === "string" ? record.updatedBy : null,
  };
}

/** Reads the settings; a missing key or a failed read gives no windows (every year takes the default). */
export async function findEditionSettings(deps: { kv: Kv; log: Logger }): Promise<EditionSettings> {
  try {
    return readEditionValue(await deps.kv.get(EDITIONS_KV_KEY));
  } catch (error) {
    deps.log.warn("editions", "Edition windows unreadable; every edition takes the default window", undefined, error);
    return readEditionValue(undefined);
  }
}

/** Reads the stored windows into the kept copy (at start, and when another instance announces a save). */
export async function reloadEditions(deps: { kv: Kv; log: Logger }, kept: KeptEditions): Promise<void> {
  kept.windows = (await findEditionSettings(deps)).windows;
}

/** True when an invalidation announces a save of the windows. */
export function announcesEditions(invalidation: Invalidation): boolean {
  return invalidation.tags?.includes(EDITIONS_CACHE_TAG) === true;
}

/** What the console sends: a year and its window, or a year and `reset` to go back to the default. */
export interface EditionWindowUpdate {
  year: number;
  window: EditionWindow | null;
}

/**
 * Reads an update (the API's fields are held to ADMIN_BODY_FIELDS by the admin guard); a wrong type
 * or a window that breaks the rules is refused.
 */
export function parseEditionWindowUpdate(input: unknown): EditionWindowUpdate | Invalid {
  const body = isRecord(input) ? input : {};
  const year = typeof body.year === "number" ? body.year : typeof body.year === "string" && /^\d{4}$/.test(body.year.trim()) ? Number(body.year.trim()) : Number.NaN;
  if (!Number.isInteger(year) || year < EDITION_YEARS.min || year > EDITION_YEARS.max) {
    const message = `The year must be between ${EDITION_YEARS.min} and ${EDITION_YEARS.max}`;
    return invalid(message, [{ field: "year", message }]);
  }
  if (body.reset === true || body.reset === "true" || body.reset === "on") return { year, window: null };
  const text = (name: "from" | "to" | "night") => (typeof body[name] === "string" ? (body[name] as string).trim() : "");
  const window = { from: text("from"), to: text("to"), night: text("night") };
  const problem = windowProblem(year, window);
  if (problem) return invalid(problem.message, [problem]);
  return { year, window };
}

/**
 * Saves one year's window (or drops it, back to the default) without touching any other year's,
 * updates this process's copy, and drops every cached render on every instance.
 */
export async function saveEditionWindow(
  deps: { kv: Kv; log: Logger; invalidation: InvalidationBus; now: () => Date; editions: KeptEditions },
  update: EditionWindowUpdate,
  updatedBy: string,
): Promise<{ ok: true; settings: EditionSettings; edition: Edition }> {
  const saved = await deps.kv.update<EditionSettings>(EDITIONS_KV_KEY, (current) => {
    const windows = { ...readEditionValue(current).windows };
    if (update.window) windows[String(update.year)] = update.window;
    else delete windows[String(update.year)];
    return { version: 1, windows, updatedAt: deps.now().toISOString(), updatedBy };
  });
  const settings = readEditionValue(saved);
  deps.editions.windows = settings.windows;
  await deps.invalidation.invalidate({ paths: [...HOMEPAGE.paths], tags: [...HOMEPAGE.tags, EDITIONS_CACHE_TAG] });
  return { ok: true, settings, edition: editionOf(update.year, settings.windows) };
}
