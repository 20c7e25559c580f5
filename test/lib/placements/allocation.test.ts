import { describe, expect, test } from "bun:test";
import { allocateSpotlight, type AllocationInput } from "../../../src/lib/placements/allocation.ts";

const NOW = new Date("2026-06-20T10:00:00Z");
const at = (hoursFromNow: number) => new Date(NOW.getTime() + hoursFromNow * 3_600_000);

/** An entry: requested start and duration in hours from NOW; `started` gives it a frozen window and slot. */
function entry(id: string, requested: number, duration: number, started?: { start: number; slot: number }, createdOrder = 0): AllocationInput {
  return {
    id,
    eventKey: `key-${id}`,
    requestedStartAt: at(requested),
    createdAt: new Date(NOW.getTime() - 86_400_000 + createdOrder * 1000),
    durationHours: duration,
    effectiveStartAt: started ? at(started.start) : null,
    effectiveEndAt: started ? at(started.start + duration) : null,
    slot: started ? started.slot : null,
  };
}

/** The allocation as [id, slot, start, end] in hours from NOW. */
function table(entries: AllocationInput[], slots = 3) {
  const result = allocateSpotlight(entries, slots, NOW);
  return entries.map((e) => {
    const a = result.get(e.id)!;
    return [e.id, a.slot, (a.effectiveStartAt.getTime() - NOW.getTime()) / 3_600_000, (a.effectiveEndAt.getTime() - NOW.getTime()) / 3_600_000];
  });
}

// Hand-worked schedules: each row is [id, slot, start h, end h] relative to now.
describe("spotlight allocation", () => {
  const cases: { name: string; entries: AllocationInput[]; expected: (string | number)[][]; slots?: number }[] = [
    {
      name: "4 entries on 3 slots, all asking for now: the fourth queues behind the first slot to free",
      entries: [entry("a", 0, 48, undefined, 1), entry("b", 0, 24, undefined, 2), entry("c", 0, 12, undefined, 3), entry("d", 0, 10, undefined, 4)],
      expected: [
        ["a", 1, 0, 48],
        ["b", 2, 0, 24],
        ["c", 3, 0, 12],
        ["d", 3, 12, 22],
      ],
    },
    {
      name: "queue order is requested start, then created_at: an earlier request jumps a later one",
      entries: [entry("late", 5, 10, undefined, 1), entry("s1", -1, 48, { start: -1, slot: 1 }), entry("s2", -1, 48, { start: -1, slot: 2 }), entry("s3", -1, 30, { start: -1, slot: 3 }), entry("early", 2, 10, undefined, 2)],
      expected: [
        ["late", 3, 39, 49],
        ["s1", 1, -1, 47],
        ["s2", 2, -1, 47],
        ["s3", 3, -1, 29],
        ["early", 3, 29, 39],
      ],
    },
    {
      name: "a cancel frees a slot: with b gone, the queued entry starts now in b's slot",
      entries: [entry("a", -2, 12, { start: -2, slot: 1 }), entry("c", -1, 30, { start: -1, slot: 3 }), entry("d", 0, 48, { start: 10, slot: 1 })],
      expected: [
        ["a", 1, -2, 10],
        ["c", 3, -1, 29],
        ["d", 2, 0, 48],
      ],
    },
    {
      name: "a started entry rescheduled to later leaves its slot to the queue and queues itself",
      entries: [entry("a", 5, 48, undefined, 1), entry("b", -3, 48, { start: -3, slot: 2 }), entry("c", -4, 48, { start: -4, slot: 3 }), entry("d", 0, 24, { start: 46, slot: 1 }, 2)],
      expected: [
        ["a", 1, 24, 72],
        ["b", 2, -3, 45],
        ["c", 3, -4, 44],
        ["d", 1, 0, 24],
      ],
    },
    {
      name: "overflow queues into the next day: three busy slots push a 20:00 request past midnight",
      entries: [entry("s1", -2, 18, { start: -2, slot: 1 }), entry("s2", -1, 16, { start: -1, slot: 2 }), entry("s3", -3, 20, { start: -3, slot: 3 }), entry("evening", 10, 48, undefined, 1)],
      expected: [
        ["s1", 1, -2, 16],
        ["s2", 2, -1, 15],
        ["s3", 3, -3, 17],
        ["evening", 2, 15, 63],
      ],
    },
    {
      name: "started entries keep their slot numbers even when a lower slot is free",
      entries: [entry("x", -1, 10, { start: -1, slot: 3 }), entry("y", -2, 10, { start: -2, slot: 2 }), entry("new", 0, 5, undefined, 1)],
      expected: [
        ["x", 3, -1, 9],
        ["y", 2, -2, 8],
        ["new", 1, 0, 5],
      ],
    },
    {
      name: "an allocated entry that has not started yet is re-queued (an earlier slot opens for it)",
      entries: [entry("a", -1, 10, { start: -1, slot: 1 }), entry("q", 0, 5, { start: 9, slot: 1 })],
      expected: [
        ["a", 1, -1, 9],
        ["q", 2, 0, 5],
      ],
    },
    {
      name: "one slot: everything queues end to end, ties broken by event key then id",
      slots: 1,
      entries: [entry("b", 0, 2, undefined, 1), entry("a", 0, 3, undefined, 1), entry("c", 1, 1, undefined, 0)],
      expected: [
        ["b", 1, 3, 5],
        ["a", 1, 0, 3],
        ["c", 1, 5, 6],
      ],
    },
  ];

  for (const c of cases) {
    test(c.name, () => {
      expect(table(c.entries, c.slots)).toEqual(c.expected);
    });
  }

  test("never more than `slots` windows overlap, whatever the input", () => {
    const entries = Array.from({ length: 40 }, (_, i) => entry(`e${String(i).padStart(2, "0")}`, (i * 7) % 30, 1 + ((i * 13) % 50), undefined, i));
    const result = [...allocateSpotlight(entries, 3, NOW).values()];
    const boundaries = result.flatMap((a) => [a.effectiveStartAt.getTime(), a.effectiveEndAt.getTime() - 1]);
    for (const t of boundaries) {
      const overlapping = result.filter((a) => a.effectiveStartAt.getTime() <= t && t < a.effectiveEndAt.getTime());
      expect(overlapping.length).toBeLessThanOrEqual(3);
      expect(new Set(overlapping.map((a) => a.slot)).size).toBe(overlapping.length);
    }
  });
});
