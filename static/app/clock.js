// The page's clock and what follows it: the countdown to the festival, placement badges that
// expire and the live states of the cards, kept current while the page stays open.

import { $, $all } from "./page.js";
import { countdown, liveState } from "./live-times.js";

/**
 * Draws the countdown, badges and live states now and every 30 seconds.
 * @param {import("./page.js").Page} page
 * @param {import("./page.js").Parts} app
 */
export function startClock(page, app) {
  var doc = page.doc;
  var msg = page.msg;

  // The page's clock: the real one, or, outside production, the preview minute the server rendered
  // the page at (the badge's data-preview-at, docs/public-pages.md, "Preview clock"), so live states,
  // badges, the countdown and near me read the same minute as the server.

  var previewBadge = $("[data-preview-at]");
  var previewAt = previewBadge ? Number(previewBadge.getAttribute("data-preview-at")) : NaN;
  function clockNow() {
    return isNaN(previewAt) ? Date.now() : previewAt;
  }


  var parisParts = new Intl.DateTimeFormat("en-CA", { timeZone: doc.body.getAttribute("data-time-zone") || undefined, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  /** @returns {import("./live-times.js").WallClock} */
  function parisNow() {
    /** @type {Record<string, string>} */
    var parts = {};
    parisParts.formatToParts(new Date(clockNow())).forEach(function (part) {
      parts[part.type] = part.value;
    });
    return /** @type {any} */ (parts);
  }
  function updateCountdown() {
    var box = $("[data-countdown]");
    if (!box) return;
    var left = countdown(parisNow(), box.getAttribute("data-countdown"));
    var value = $(".countdown-value", box);
    if (left.state === "today") {
      box.hidden = false;
      value.textContent = msg("today");
    } else if (left.state === "past") {
      box.hidden = true;
    } else {
      box.hidden = false;
      value.textContent = msg("countdown", { days: left.days, hours: left.hours, minutes: (left.minutes < 10 ? "0" : "") + left.minutes });
    }
  }
  // Cards treat placement end times as authoritative: a cached page drops expired badges by itself.
  function expireBadges() {
    var now = clockNow();
    $all("[data-ends-at]").forEach(function (el) {
      var end = Date.parse(el.getAttribute("data-ends-at"));
      if (!isNaN(end) && end <= now) el.hidden = true;
    });
  }
  // Live states ("On now · until 23:00", "In 20 min", "Last hour", "Ended") are drawn by the server
  // and kept current here from the span each one carries (start and end instants, the end as
  // HH:MM, the "soon" and "ended" thresholds), so a page left open or served from a cache stays true.
  function updateLiveStates() {
    var now = clockNow();
    $all("[data-live]").forEach(function (el) {
      var state = liveState(el.getAttribute("data-live"), now);
      var kind = state.kind;
      var text = kind ? msg(state.message, state.params) : "";
      el.className = kind ? "live-state live-" + kind : "live-state";
      el.textContent = text;
      el.hidden = !kind;
    });
  }
  updateCountdown();
  expireBadges();
  updateLiveStates();
  doc.body.addEventListener("htmx:afterSettle", updateLiveStates);
  setInterval(function () {
    updateCountdown();
    expireBadges();
    updateLiveStates();
  }, 30000);
  return { clockNow, expireBadges, updateLiveStates };
}
