import { describe, expect, test } from "bun:test";
import {
  bannerAnimationSeconds,
  bannerText,
  BANNER_EMPTY_ERROR,
  BANNER_KV_KEY,
  cleanBannerMessages,
  clampMessageDuration,
  DEFAULT_BANNER_MESSAGES,
  defaultBannerSettings,
  findBannerSettings,
  publicBanner,
  readBannerValue,
  saveBannerSettings,
  validateBannerUpdate,
} from "../../../src/lib/site/banner.ts";
import { createMemoryLogger } from "../../../src/lib/logger.ts";
import type { Kv } from "../../../src/lib/kv.ts";
import type { Invalidation } from "../../../src/lib/serving/invalidation.ts";

function memoryKv(initial: Record<string, unknown> = {}, failing = false): Kv {
  const store = new Map(Object.entries(initial));
  return {
    get: async (key) => {
      if (failing) throw new Error("db down");
      return store.get(key) as never;
    },
    set: async (key, value) => void store.set(key, value),
    delete: async (key) => store.delete(key),
    list: async () => [],
    update: async (key, fn) => {
      const next = fn(store.get(key) as never);
      store.set(key, next);
      return next;
    },
  };
}

describe("sliding banner settings", () => {
  test("defaults", () => {
    expect(defaultBannerSettings()).toEqual({ version: 1, enabled: true, messages: [...DEFAULT_BANNER_MESSAGES], messageDurationMs: 4200, desktopMessageCount: 2, updatedAt: null, updatedBy: null });
    expect(DEFAULT_BANNER_MESSAGES).toEqual([
      "Fête de la Musique · 21 June · all over Paris",
      "Free events, club nights and street stages in one calendar",
      "Filter by arrondissement, genre and time of day",
      "Hosting something? Submit your event for review",
    ]);
  });

  test.each([
    [undefined, defaultBannerSettings()],
    ["not json", defaultBannerSettings()],
    [[1, 2], defaultBannerSettings()],
    [{ enabled: false, messages: [] }, { ...defaultBannerSettings(), enabled: false, messages: [] }],
    [{ enabled: true, messages: [42, "  "] }, defaultBannerSettings()],
    [{ messages: ["  Hello   world  "], messageDurationMs: 100, desktopMessageCount: 1 }, { ...defaultBannerSettings(), messages: ["Hello world"], messageDurationMs: 1800, desktopMessageCount: 1 }],
    [{ messageDurationMs: 99999.4, desktopMessageCount: 7, updatedAt: "2026-06-01T00:00:00Z", updatedBy: "admin" }, { ...defaultBannerSettings(), messageDurationMs: 12000, updatedAt: "2026-06-01T00:00:00Z", updatedBy: "admin" }],
  ])("stored %j reads as the right settings", (stored, expected) => {
    expect(readBannerValue(stored)).toEqual(expected as never);
  });

  test("messages: strings only, whitespace collapsed, empties removed, at most 12 of 160 characters", () => {
    expect(cleanBannerMessages(["a\n\tb", "", null, 3, " c "])).toEqual(["a b", "c"]);
    expect(cleanBannerMessages(Array.from({ length: 20 }, (_, i) => `m${i}`)).length).toBe(12);
    expect(cleanBannerMessages(["x".repeat(500)])[0].length).toBe(160);
    expect(cleanBannerMessages("nope")).toEqual([]);
  });

  test.each([
    [4200, 4200],
    [1000, 1800],
    [20000, 12000],
    [2500.6, 2501],
    ["3000", 3000],
    ["abc", 4200],
    [NaN, 4200],
    [null, 4200],
  ])("duration %p → %p ms", (input, expected) => {
    expect(clampMessageDuration(input)).toBe(expected);
  });

  test.each([
    [4200, 19.95],
    [1800, 8.55],
    [12000, 57],
  ])("marquee length for %p ms is %p s (×4.75, clamped 8–120)", (ms, seconds) => {
    expect(bannerAnimationSeconds(ms)).toBe(seconds);
  });

  test("text and public view", () => {
    expect(bannerText(["a", "b"])).toBe("a • b");
    const view = publicBanner({ ...defaultBannerSettings(), updatedBy: "secret-admin" });
    expect("updatedBy" in view).toBe(false);
  });

  test("an enabled banner without messages is refused; fields not given keep their value", () => {
    const meta = { now: new Date("2026-06-01T10:00:00Z"), updatedBy: "admin" };
    expect(validateBannerUpdate({ enabled: true, messages: ["", "  "] }, defaultBannerSettings(), meta)).toEqual({ ok: false, error: BANNER_EMPTY_ERROR });
    expect(BANNER_EMPTY_ERROR).toBe("Banner needs at least one message when enabled");
    const disabled = validateBannerUpdate({ enabled: false, messages: [] }, defaultBannerSettings(), meta);
    expect(disabled.ok && disabled.settings).toMatchObject({ enabled: false, messages: [], updatedAt: "2026-06-01T10:00:00.000Z", updatedBy: "admin" });
    const partial = validateBannerUpdate({ messageDurationMs: 6000 }, defaultBannerSettings(), meta);
    expect(partial.ok && partial.settings.messages).toEqual([...DEFAULT_BANNER_MESSAGES]);
    expect(partial.ok && partial.settings.messageDurationMs).toBe(6000);
    expect(validateBannerUpdate("garbage", defaultBannerSettings(), meta).ok).toBe(true);
  });

  test("save writes KV and invalidates /, /feature-event and the sliding-banner tag; a read failure gives the defaults", async () => {
    const kv = memoryKv();
    const invalidations: Invalidation[] = [];
    const deps = { kv, log: createMemoryLogger(), now: () => new Date("2026-06-01T10:00:00Z"), invalidation: { invalidate: async (i: Invalidation) => void invalidations.push(i), subscribe: () => () => {} } };
    const result = await saveBannerSettings(deps, { messages: ["Hello"] }, "admin");
    expect(result.ok).toBe(true);
    expect((await kv.get<{ messages: string[] }>(BANNER_KV_KEY))!.messages).toEqual(["Hello"]);
    expect(invalidations).toEqual([{ paths: ["/", "/feature-event"], tags: ["sliding-banner"] }]);
    expect((await findBannerSettings(deps)).messages).toEqual(["Hello"]);
    const refused = await saveBannerSettings(deps, { messages: [] }, "admin");
    expect(refused.ok).toBe(false);
    expect(invalidations.length).toBe(1);
    const log = createMemoryLogger();
    expect(await findBannerSettings({ kv: memoryKv({}, true), log })).toEqual(defaultBannerSettings());
  });
});
