// What every part of the sheet editor shares: the API addresses, the grid's sizes and small DOM helpers.

// Under the base path when the site has one (the page sends it as data-site-path).
export var API = (document.body.getAttribute("data-site-path") || "") + "/api/admin/sheet";
export var DELAY = 850;
export var FROZEN = 2;
export var WIDTH = { title: 220, notes: 320, location: 200 };
export var MIN_WIDTH = 60;
export var DRAFTS = API + "/drafts";
export var DRAFT_ROW = "New row, not published yet";

// What a marked cell says: what visitors see there until it is published.
export function draftTitle(published) {
  return "Not published yet. Visitors see: " + (published === "" ? "(empty)" : "\u201c" + published + "\u201d");
}

export function uuid() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  var b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 15) | 64;
  b[8] = (b[8] & 63) | 128;
  var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
  return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
}

export function el(tag, attrs, text) {
  var node = document.createElement(tag);
  for (var k in attrs || {}) node.setAttribute(k, attrs[k]);
  if (text !== undefined) node.textContent = text;
  return node;
}
