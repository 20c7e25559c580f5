// Live countdowns of the spotlight status on /feature-event: "Live · ends in 3h 12m" / "Ended 1h 5m ago".
(function () {
  function label(el, now) {
    var end = Date.parse(el.getAttribute("data-countdown-end"));
    if (isNaN(end)) return;
    var minutes = Math.max(0, Math.round(Math.abs(end - now) / 60000));
    var text = Math.floor(minutes / 60) + "h " + (minutes % 60) + "m";
    el.textContent = end > now ? "Live · ends in " + text : "Ended " + text + " ago";
  }
  function tick() {
    var now = Date.now();
    var items = document.querySelectorAll("[data-countdown-end]");
    for (var i = 0; i < items.length; i++) label(items[i], now);
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  setInterval(tick, 30000);
})();
