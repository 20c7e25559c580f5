// The sums behind the homepage's clock (docs/public-pages.md): the countdown to the festival's day
// and the live state of an event card ("On now", "In 20 min", "Last hour", "Ended"). Nothing here
// touches the page, so it is unit-tested (test/static/app/live-times.test.ts).

/** A Paris wall-clock reading, as Intl.DateTimeFormat's parts give it ("2026", "06", "21", "20", "05"). */
/** @typedef {{ year: string, month: string, day: string, hour: string, minute: string }} WallClock */

/**
 * What the countdown shows at `now` for the festival's night (`night` as YYYY-MM-DD, the current
 * edition's, which the server writes on the page): "today" on the day, nothing ("past") after it,
 * else the days, hours and minutes left.
 * @param {WallClock} now
 * @param {string} night
 * @returns {{ state: "today" } | { state: "past" } | { state: "ahead", days: number, hours: number, minutes: number }}
 */
export function countdown(now, night) {
  var date = now.year + "-" + now.month + "-" + now.day;
  var target = night;
  if (date === target) return { state: "today" };
  if (date > target) return { state: "past" };
  // Minutes between two Paris wall-clock readings: both as if UTC, so no offset is needed.
  var nowMinutes = Date.UTC(+now.year, +now.month - 1, +now.day, +now.hour, +now.minute) / 60000;
  var targetParts = target.split("-");
  var left = Date.UTC(+targetParts[0], +targetParts[1] - 1, +targetParts[2]) / 60000 - nowMinutes;
  return { state: "ahead", days: Math.floor(left / 1440), hours: Math.floor((left % 1440) / 60), minutes: left % 60 };
}

/**
 * An event card's live state at `now` (epoch milliseconds) from the span the server wrote on it
 * (data-live: start and end instants, the end as HH:MM, the "soon" and "ended" thresholds in
 * milliseconds): its kind ("" when none shows) and the message that names it, with its parameters.
 * @param {string} span "1782072000000 1782079200000 23:00 1800000 3600000"
 * @param {number} now
 * @returns {{ kind: "" | "ended" | "lastHour" | "on" | "soon", message: string, params?: Record<string, string | number> }}
 */
export function liveState(span, now) {
  var p = span.split(" ");
  var start = +p[0], end = +p[1], soon = +p[3], endedFor = +p[4];
  if (now >= end) {
    if (now - end < endedFor) return { kind: "ended", message: "ended" };
  } else if (now >= start) {
    if (end - now <= soon) return { kind: "lastHour", message: "liveLastHour" };
    return { kind: "on", message: "liveOn", params: { time: p[2] } };
  } else if (start - now <= soon) {
    return { kind: "soon", message: "liveSoon", params: { minutes: Math.max(1, Math.ceil((start - now) / 60000)) } };
  }
  return { kind: "", message: "" };
}
