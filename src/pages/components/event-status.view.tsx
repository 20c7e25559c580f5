// The status line of an event (see docs/public-pages.md, "Status markers"): cancelled, moved or
// full with the public reason, "updated HH:MM" and "new"; and the live state of the time line.
// Shared by the card, the modal and My night.

import { LIVE_ENDED_MS, LIVE_SOON_MS, liveClock, liveState, statusMarks } from "../../lib/events/event-status.ts";
import { formatDateLabel } from "../../lib/sheet/dates.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import { t } from "../../lib/i18n/index.ts";

/** The status line, or nothing when the event is scheduled, unchanged and not new. */
export function EventStatusLine(props: { event: LiveEvent; now: Date; class?: string }): JSX.Element {
  const marks = statusMarks(props.event, props.now);
  if (!marks.status && !marks.updated && !marks.isNew) return "";
  return (
    <p class={["status-line", props.class]}>
      {marks.status ? (
        <span class={`status-badge status-${marks.status}`} safe>
          {t(`status.${marks.status}`)}
        </span>
      ) : (
        ""
      )}
      {marks.note ? (
        <span class="status-note" safe>
          {marks.note}
        </span>
      ) : (
        ""
      )}
      {marks.updated ? (
        <span class="status-updated" safe>
          {marks.updated.date ? t("status.updatedOn", { date: formatDateLabel(marks.updated.date), time: marks.updated.time }) : t("status.updated", { time: marks.updated.time })}
        </span>
      ) : (
        ""
      )}
      {marks.isNew ? (
        <span class="status-new" safe>
          {t("status.new")}
        </span>
      ) : (
        ""
      )}
    </p>
  );
}

/**
 * The live state at the render ("En cours · jusqu'à 23:00", "Dans 20 min", "Dernière heure",
 * "Terminé"), with what the browser needs to keep it current each minute without a request
 * (static/app.js): the span's instants, its end as HH:MM and the two thresholds.
 */
export function LiveState(props: { event: LiveEvent; now: Date }): JSX.Element {
  const clock = liveClock(props.event, props.now);
  if (!clock) return "";
  const state = liveState(props.event, props.now);
  const text =
    state === null ? "" : state.kind === "on" ? t("client.liveOn", { time: state.until }) : state.kind === "lastHour" ? t("client.liveLastHour") : state.kind === "soon" ? t("client.liveSoon", { minutes: state.minutes }) : t("client.ended");
  return (
    <span class={["live-state", state && `live-${state.kind}`]} data-live={`${clock.start} ${clock.end} ${clock.until} ${LIVE_SOON_MS} ${LIVE_ENDED_MS}`} hidden={state === null} safe>
      {text}
    </span>
  );
}
