// Link rules (§2.10): splitting the Primary URL cell into kept URLs.

import { expect, test } from "bun:test";
import { parseLinks } from "../../../src/lib/sheet/link-cell.ts";

test.each([
  ["https://a.example/x", { link: "https://a.example/x" }],
  ["http://a.example", { link: "http://a.example" }],
  ["a.example/tickets", { link: "https://a.example/tickets" }],
  ["www.a.example", { link: "https://www.a.example" }],
  [
    "https://a.example | https://b.example/21-june",
    { link: "https://a.example", links: ["https://a.example", "https://b.example/21-june"] },
  ],
  ["https://a.example,\nb.example", { link: "https://a.example", links: ["https://a.example", "https://b.example"] }],
  ["see instagram, a.example", { link: "https://a.example" }],
  ["ask at the door", { link: null }],
  ["#", { link: null }],
  ["", { link: null }],
  ["javascript:alert(1)", { link: null }],
])("%p → %p", (cell, reading) => {
  expect(parseLinks(cell)).toEqual(reading);
});
