// An htmx URL with a search is read from the reading of the same URL without its search
// (readSearchedRequest): it must give exactly what reading the whole URL gives, for every filter
// state, moment, page, event, and every search text, hostile ones included.

import { describe, expect, test } from "bun:test";
import { readHomeRequest, readSearchedRequest } from "../../../../src/pages/home/fast/home-request.ts";

const ORIGIN = "http://localhost:3000";
const readWhole = (url: string) => readHomeRequest(new URL(url), true);

/** Filter states and other parameters as the form, links and hand-written URLs send them. */
const STATES = [
  "",
  "g=house",
  "g=house&dn=night",
  "df=2026-06-21&dt=2026-06-21&g=jazz,house&arr=11,3",
  "dt=2026-06-19&df=2026-06-22",
  "df=&dt=&dn=&arr=&g=&nat=&vt=&in=&pick=&pr_min=0&pr_max=100&ag_min=0&ag_max=99",
  "pr_min=5&pr_max=20&ag_min=18&ag_max=21&pick=1",
  "g=HOUSE&g=jazz&arr=11e&nat=fr&vt=bar&in=outdoor",
  "when=now&g=house",
  "when=tonight",
  "p=2&g=house",
  "event=evt_0123456789abcdef&slug=some-event",
  "map=1&g=house",
  "near=1&arr=11",
  "lang=en&g=house",
  "unknown=1&g=house",
  "g=house&=x&&",
];

const SEARCHES = ["kompa", "venue+m12", "Jazz%20%20Funk", "%C3%A9t%C3%A9", "k%C3%B6mpa", "%3Cscript%3Ealert(1)%3C%2Fscript%3E", "a%26b%3Dc", "a=b", "%20%20", "", "%F0%9F%8E%B8", "%E0%A4%A", "zqxsearchstandinzqx", "x".repeat(300), "100%25", "+"];

describe("reading a searched htmx URL from its reading without the search", () => {
  test("gives what reading the whole URL gives, wherever the search sits", () => {
    let fast = 0;
    for (const state of STATES) {
      for (const q of SEARCHES) {
        const parts = state === "" ? [] : state.split("&");
        for (const at of new Set([0, parts.length, Math.floor(parts.length / 2)])) {
          const query = [...parts.slice(0, at), `q=${q}`, ...parts.slice(at)].join("&");
          const url = `${ORIGIN}/?${query}`;
          const read = readSearchedRequest(url, readWhole);
          if (read === undefined) continue;
          fast++;
          expect({ url, read }).toEqual({ url, read: readWhole(url) });
        }
      }
    }
    // Every URL above has one plain `q`: the fast reading takes them all.
    expect(fast).toBeGreaterThan(STATES.length * SEARCHES.length);
  });

  test("leaves to the whole reading a URL without a search, with two, or with an encoded name", () => {
    for (const query of ["g=house", "q=a&q=b", "g=house&q=a&g=jazz&q=b", "%71=kompa&q=jazz", "q=jazz&g%3D=house", "q+=x&q=y", ""]) {
      expect(readSearchedRequest(`${ORIGIN}/?${query}`, readWhole)).toBeUndefined();
    }
    expect(readSearchedRequest(`${ORIGIN}/`, readWhole)).toBeUndefined();
  });

  test("an empty search reads as the URL without it; a search asks to be kept only once asked again", () => {
    const plain = readWhole(`${ORIGIN}/?g=house`);
    expect(readSearchedRequest(`${ORIGIN}/?g=house&q=`, readWhole)).toEqual(readWhole(`${ORIGIN}/?g=house&q=`));
    expect(plain.policy.keepWhenAskedAgain).toBeUndefined();
    expect(readSearchedRequest(`${ORIGIN}/?g=house&q=jazz`, readWhole)!.policy.keepWhenAskedAgain).toBe(true);
  });
});
