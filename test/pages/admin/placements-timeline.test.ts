import { describe, expect, test } from "bun:test";
import { timelineModel, TIMELINE_MAX_DAYS } from "../../../src/pages/admin/placements/timeline.view.tsx";
import type { ScheduleEntry, ScheduleListing } from "../../../src/lib/placements/scheduler.ts";

function entry(id: string, start: string, end: string, state: ScheduleEntry["state"] = "upcoming", slot: number | null = null): ScheduleEntry {
  return { id, eventKey: `evt_${id}`, requestedStartAt: start, effectiveStartAt: start, effectiveEndAt: end, durationHours: 1, status: state === "cancelled" ? "cancelled" : "scheduled", state, queuePosition: null, slot, createdBy: "admin-key", createdAt: start };
}

function listing(tier: "spotlight" | "promoted", entries: ScheduleEntry[]): ScheduleListing {
  return { tier, entries, activeCount: 0, slots: tier === "spotlight" ? 3 : null, upcomingCount: 0, recentlyEndedCount: 0, scheduledCount: entries.length };
}

describe("scheduler timeline", () => {
  test("whole Paris days; the autumn change makes 25 October a 25-hour day, drawn wider", () => {
    const model = timelineModel(listing("spotlight", [entry("a", "2026-10-24T10:00:00Z", "2026-10-26T10:00:00Z", "upcoming", 1)]), new Date("2026-10-24T08:00:00Z"));
    expect(model.days.map((d) => d.date)).toEqual(["2026-10-24", "2026-10-25", "2026-10-26"]);
    expect(model.from.toISOString()).toBe("2026-10-23T22:00:00.000Z");
    expect(model.to.toISOString()).toBe("2026-10-26T23:00:00.000Z");
    const [d24, d25, d26] = model.days;
    expect(d25!.width).toBeGreaterThan(d24!.width);
    expect(d24!.width).toBe(d26!.width);
    expect(model.lanes.map((l) => [l.label, l.bars.length])).toEqual([["Slot 1", 1], ["Slot 2", 0], ["Slot 3", 0]]);
  });

  test("promoted entries take as few rows as their overlaps need; cancelled and long-completed entries are not drawn", () => {
    const now = new Date("2026-06-18T10:00:00Z");
    const model = timelineModel(
      listing("promoted", [
        entry("a", "2026-06-18T10:00:00Z", "2026-06-19T10:00:00Z", "active"),
        entry("b", "2026-06-18T12:00:00Z", "2026-06-18T20:00:00Z"),
        entry("c", "2026-06-19T10:00:00Z", "2026-06-19T12:00:00Z"),
        entry("x", "2026-06-18T12:00:00Z", "2026-06-18T20:00:00Z", "cancelled"),
        entry("old", "2026-06-01T12:00:00Z", "2026-06-02T20:00:00Z", "completed"),
      ]),
      now,
    );
    expect(model.lanes.map((l) => [l.label, l.bars.map((b) => b.entry.id)])).toEqual([
      ["Row 1", ["a", "c"]],
      ["Row 2", ["b"]],
    ]);
    expect(model.days.map((d) => d.date)).toEqual(["2026-06-18", "2026-06-19"]);
  });

  test(`at most ${TIMELINE_MAX_DAYS} days: a longer window is cut at the edge and says so; an empty schedule shows today`, () => {
    const now = new Date("2026-06-18T10:00:00Z");
    const model = timelineModel(listing("spotlight", [entry("long", "2026-06-18T10:00:00Z", "2026-07-30T10:00:00Z", "active", 2)]), now);
    expect(model.days).toHaveLength(TIMELINE_MAX_DAYS);
    const bar = model.lanes[1]!.bars[0]!;
    expect(bar).toMatchObject({ cutStart: false, cutEnd: true });
    expect(bar.left + bar.width).toBe(100);
    const empty = timelineModel(listing("spotlight", []), now);
    expect(empty.days.map((d) => d.date)).toEqual(["2026-06-18"]);
    expect(empty.lanes.every((l) => l.bars.length === 0)).toBe(true);
    expect(empty.now).toBe(50);
  });
});
