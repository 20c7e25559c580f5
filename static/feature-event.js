// Live countdowns of the spotlight status on /feature-event, every second: "Live · ends in 2h 05m 09s",
// then "Ended 0h 1m ago" once a placement ends, with its state and the slots badge kept in step.
(function () {
  // The page's words (static/messages.js, loaded before this script).
  var msg = window.finderMsg;
  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }
  function label(end, now) {
    var diff = end - now;
    if (diff > 0) {
      var s = Math.floor(diff / 1000);
      return msg("liveEndsIn", { h: Math.floor(s / 3600), m: pad(Math.floor(s / 60) % 60), s: pad(s % 60) });
    }
    var m = Math.floor(-diff / 60000);
    return msg("endedAgo", { h: Math.floor(m / 60), m: m % 60 });
  }
  function tick() {
    var now = Date.now();
    var live = 0;
    var items = document.querySelectorAll("[data-countdown-end]");
    for (var i = 0; i < items.length; i++) {
      var el = items[i];
      var end = Date.parse(el.getAttribute("data-countdown-end"));
      if (isNaN(end)) continue;
      var text = label(end, now);
      if (el.textContent !== text) el.textContent = text;
      var entry = el.closest(".spotlight-entry");
      if (end > now) live++;
      else if (entry && entry.classList.contains("spotlight-active")) {
        entry.classList.replace("spotlight-active", "spotlight-recent-ended");
        var state = entry.querySelector(".spotlight-state");
        if (state) state.textContent = msg("ended");
      }
    }
    var badge = document.querySelector(".slots-badge[data-slots]");
    if (badge && items.length) {
      var slots = Number(badge.getAttribute("data-slots"));
      var left = Math.max(0, slots - live);
      var badgeText = msg("slotsLeft", { left: left, slots: slots });
      if (badge.textContent !== badgeText) badge.textContent = badgeText;
      badge.classList.toggle("slots-full", left === 0);
    }
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  setInterval(tick, 1000);
})();
