// The scheduler's timeline on /admin/placements (see docs/placements.md, "Console"): one lane per
// spotlight slot (promoted: as many lanes as overlapping entries need) over the Paris days the
// schedule covers, each entry a bar from its start to its end with its state and queue position,
// a line at "now". Server-rendered positions (percent of the range), so it reads without JS; every
// bar also carries its window as text, so it reads without CSS too.

import type { ScheduleEntry, ScheduleListing, Tier } from "../../../lib/placements/scheduler.ts";
import { parisDate, parisInstant, parisFormat } from "../../../lib/paris-time.ts";
import { formatParisDisplay } from "../../../lib/placements/schedule-input.ts";

/** The timeline never spans more than two weeks; bars beyond are cut at the edge (and say so). */
export const TIMELINE_MAX_DAYS = 14;

export interface TimelineBar {
  entry: ScheduleEntry;
  left: number;
  width: number;
  /** The window starts before or ends after the drawn range. */
  cutStart: boolean;
  cutEnd: boolean;
}

export interface TimelineModel {
  from: Date;
  to: Date;
  days: { date: string; left: number; width: number }[];
  lanes: { label: string; bars: TimelineBar[] }[];
  /** Position of now, or null when outside the range. */
  now: number | null;
}

const DAY_MS = 86_400_000;

function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** Entries drawn: scheduled (active or upcoming) and recently ended ones, with a window. */
function drawn(listing: ScheduleListing): ScheduleEntry[] {
  return listing.entries.filter((e) => e.effectiveStartAt && e.effectiveEndAt && (e.state === "active" || e.state === "upcoming" || e.state === "recent-ended"));
}

/** Lanes: the spotlight slots, or for promoted the fewest lanes in which no two entries overlap. */
function lanesOf(tier: Tier, entries: ScheduleEntry[], slots: number): { label: string; entries: ScheduleEntry[] }[] {
  if (tier === "spotlight") return Array.from({ length: slots }, (_, i) => ({ label: `Slot ${i + 1}`, entries: entries.filter((e) => e.slot === i + 1) }));
  const lanes: { label: string; entries: ScheduleEntry[]; freeAt: number }[] = [];
  for (const entry of [...entries].sort((a, b) => Date.parse(a.effectiveStartAt!) - Date.parse(b.effectiveStartAt!))) {
    const start = Date.parse(entry.effectiveStartAt!);
    let lane = lanes.find((l) => l.freeAt <= start);
    if (!lane) lanes.push((lane = { label: `Row ${lanes.length + 1}`, entries: [], freeAt: 0 }));
    lane.entries.push(entry);
    lane.freeAt = Date.parse(entry.effectiveEndAt!);
  }
  return lanes.length > 0 ? lanes : [{ label: "Row 1", entries: [] }];
}

/** The timeline of a listing at `now`: whole Paris days from the earliest drawn start (or today) to the latest end (at least tomorrow). */
export function timelineModel(listing: ScheduleListing, now: Date): TimelineModel {
  const entries = drawn(listing);
  const earliest = Math.min(now.getTime(), ...entries.map((e) => Date.parse(e.effectiveStartAt!)));
  const latest = Math.max(now.getTime() + 1, ...entries.map((e) => Date.parse(e.effectiveEndAt!)));
  const dates = [parisDate(new Date(earliest))];
  while (dates.length < TIMELINE_MAX_DAYS && parisInstant(nextDate(dates.at(-1)!)).getTime() < latest) dates.push(nextDate(dates.at(-1)!));
  const from = parisInstant(dates[0]!);
  const to = parisInstant(nextDate(dates.at(-1)!));
  const span = to.getTime() - from.getTime();
  const at = (t: number) => (100 * (Math.min(Math.max(t, from.getTime()), to.getTime()) - from.getTime())) / span;
  const round = (n: number) => Math.round(n * 100) / 100;
  const days = dates.map((date) => {
    const start = parisInstant(date).getTime();
    const end = parisInstant(nextDate(date)).getTime();
    return { date, left: round(at(start)), width: round(at(end) - at(start)) };
  });
  const lanes = lanesOf(listing.tier, entries, listing.slots ?? 0).map((lane) => ({
    label: lane.label,
    bars: lane.entries
      .filter((e) => Date.parse(e.effectiveStartAt!) < to.getTime())
      .map((entry) => {
        const start = Date.parse(entry.effectiveStartAt!);
        const end = Date.parse(entry.effectiveEndAt!);
        return { entry, left: round(at(start)), width: round(at(end) - at(start)), cutStart: start < from.getTime(), cutEnd: end > to.getTime() };
      }),
  }));
  const t = now.getTime();
  return { from, to, days, lanes, now: t >= from.getTime() && t < to.getTime() ? round(at(t)) : null };
}

const DAY_LABEL = parisFormat("en-GB", { weekday: "short", day: "2-digit", month: "2-digit" });

function Bar(props: { bar: TimelineBar; name: string }): JSX.Element {
  const { bar } = props;
  const e = bar.entry;
  const window = `${formatParisDisplay(new Date(e.effectiveStartAt!))} → ${formatParisDisplay(new Date(e.effectiveEndAt!))}`;
  const queue = e.queuePosition !== null ? `#${e.queuePosition} in queue` : e.state;
  const classes = ["tl-bar", `state-${e.state}`, bar.cutStart ? "tl-cut-start" : "", bar.cutEnd ? "tl-cut-end" : ""].filter(Boolean).join(" ");
  return (
    <li class={classes} style={`left:${bar.left}%;width:${bar.width}%`} title={`${props.name} · ${window} · ${queue}`} data-entry-id={e.id}>
      <strong class="tl-name" safe>
        {props.name}
      </strong>{" "}
      <span class="tl-state" safe>
        {queue}
      </span>{" "}
      <span class="tl-when" safe>
        {window}
      </span>
    </li>
  );
}

/** The timeline figure. */
export function Timeline(props: { listing: ScheduleListing; now: Date; names: Map<string, string> }): JSX.Element {
  const model = timelineModel(props.listing, props.now);
  const spotlight = props.listing.tier === "spotlight";
  const caption = `${spotlight ? "Spotlight slots" : "Promoted entries"} from ${formatParisDisplay(model.from)} to ${formatParisDisplay(model.to)} (Paris time)`;
  return (
    <figure class="tl" aria-labelledby="timeline-caption">
      <figcaption id="timeline-caption" safe>
        {caption}
      </figcaption>
      <div class="tl-body">
        <ol class="tl-days" aria-hidden="true">
          {model.days.map((d) => (
            <li style={`left:${d.left}%;width:${d.width}%`} safe>
              {DAY_LABEL.format(parisInstant(d.date, "12:00"))}
            </li>
          ))}
        </ol>
        {model.lanes.map((lane) => (
          <section class="tl-lane" aria-label={lane.label}>
            <h4 class="tl-lane-label" safe>
              {lane.label}
            </h4>
            <ol class="tl-track">
              {lane.bars.length === 0 ? <li class="tl-free">Free</li> : lane.bars.map((bar) => <Bar bar={bar} name={props.names.get(bar.entry.eventKey.toLowerCase()) ?? bar.entry.eventKey} />)}
            </ol>
          </section>
        ))}
        {model.now !== null ? (
          <div class="tl-now" style={`left:${model.now}%`} aria-hidden="true">
            <span>now</span>
          </div>
        ) : (
          ""
        )}
      </div>
    </figure>
  );
}
