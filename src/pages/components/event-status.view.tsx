// The status line of an event (see docs/public-pages.md, "Status markers"): cancelled, moved or
// full with the public reason, "updated HH:MM" and "new". Shared by the card, the modal and My night.

import { statusMarks } from "../../lib/events/event-status.ts";
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
