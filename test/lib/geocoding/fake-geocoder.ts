// Loopback fake of the Google Geocoding JSON API, answering by venue name, plus an in-memory KV for cache tests.

import type { Kv, KvRecord } from "../../../src/lib/kv.ts";

/** One request the fake received, with its query parameters. */
export interface SeenRequest {
  address: string;
  key: string | null;
  region: string | null;
  bounds: string | null;
  at: number;
}

/** A running fake; `url` is the full endpoint to pass as `apiUrl`. */
export interface FakeGeocoder {
  url: string;
  requests: SeenRequest[];
  maxInFlight: number;
  countFor(name: string): number;
  stop(): void;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=UTF-8" } });

function ok(lat: number, lng: number, locationType: string, formattedAddress: string) {
  return json({
    status: "OK",
    results: [
      {
        formatted_address: formattedAddress,
        geometry: { location: { lat, lng }, location_type: locationType },
        place_id: `place-${lat}-${lng}`,
      },
    ],
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the fake. The venue name (text before the first comma of `address`) picks the answer:
 * Rooftop*, Range*, Zero*, Busy* (OVER_QUERY_LIMIT once, then OK), Always Busy, Denied, Billing,
 * Invalid, Unknown, Boom (HTTP 500), Teapot (418), Forbidden (403), Throttled (429), Slow (1 s),
 * Html, Broken (no lat), Far (outside Paris), Approx (no arrondissement in the address).
 */
export function startFakeGeocoder(options: { responseDelayMs?: number } = {}): FakeGeocoder {
  const requests: SeenRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const countFor = (name: string) => requests.filter((r) => r.address.split(",")[0] === name).length;

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const address = url.searchParams.get("address") ?? "";
      requests.push({
        address,
        key: url.searchParams.get("key"),
        region: url.searchParams.get("region"),
        bounds: url.searchParams.get("bounds"),
        at: performance.now(),
      });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (options.responseDelayMs) await sleep(options.responseDelayMs);
        const name = address.split(",")[0] ?? "";
        if (name.startsWith("Rooftop")) return ok(48.8765, 2.3401, "ROOFTOP", "12 Rue de Provence, 75009 Paris, France");
        if (name.startsWith("Range")) return ok(48.8534, 2.3488, "RANGE_INTERPOLATED", "4 Quai X, 75004 Paris, France");
        if (name.startsWith("Zero")) return json({ results: [], status: "ZERO_RESULTS" });
        if (name === "Always Busy") return json({ results: [], status: "OVER_QUERY_LIMIT", error_message: "You have exceeded your rate-limit for this API." });
        if (name.startsWith("Busy")) {
          if (countFor(name) === 1) return json({ results: [], status: "OVER_QUERY_LIMIT" });
          return ok(48.86, 2.35, "GEOMETRIC_CENTER", "Paris, France");
        }
        if (name === "Denied") return json({ results: [], status: "REQUEST_DENIED", error_message: "The provided API key is invalid." });
        if (name === "Billing") {
          return json({ results: [], status: "OVER_QUERY_LIMIT", error_message: "You must enable Billing on the Google Cloud Project at https://console.cloud.google.com" });
        }
        if (name === "Invalid") return json({ results: [], status: "INVALID_REQUEST" });
        if (name === "Unknown") return json({ results: [], status: "UNKNOWN_ERROR" });
        if (name === "Boom") return new Response("internal", { status: 500 });
        if (name === "Teapot") return new Response("teapot", { status: 418 });
        if (name === "Forbidden") return new Response("forbidden", { status: 403 });
        if (name === "Throttled") return new Response("slow down", { status: 429 });
        if (name === "Slow") {
          await sleep(1000);
          return ok(48.86, 2.35, "ROOFTOP", "Paris, France");
        }
        if (name === "Html") return new Response("<html><body>Oops</body></html>", { headers: { "content-type": "text/html" } });
        if (name === "Broken") return json({ status: "OK", results: [{ geometry: { location: { lng: 2.35 } } }] });
        if (name === "Far") return ok(48.8049, 2.1204, "ROOFTOP", "Place d'Armes, 78000 Versailles, France");
        if (name.startsWith("Approx")) return ok(48.85, 2.34, "APPROXIMATE", "Paris, France");
        return json({ results: [], status: "ZERO_RESULTS" });
      } finally {
        inFlight--;
      }
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/maps/api/geocode/json`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    countFor,
    stop: () => server.stop(true),
  };
}

/** In-memory Kv test double that counts reads and writes. */
export function createMemoryKv(initial: Record<string, unknown> = {}): Kv & { data: Map<string, unknown>; reads: number; writes: number } {
  const data = new Map<string, unknown>(Object.entries(structuredClone(initial)));
  const kv = {
    data,
    reads: 0,
    writes: 0,
    async get<T>(key: string): Promise<T | undefined> {
      kv.reads++;
      return structuredClone(data.get(key)) as T | undefined;
    },
    async set(key: string, value: unknown): Promise<void> {
      kv.writes++;
      data.set(key, structuredClone(value));
    },
    async delete(key: string): Promise<boolean> {
      kv.writes++;
      return data.delete(key);
    },
    async list(prefix: string, limit = 100): Promise<KvRecord[]> {
      return [...data.entries()]
        .filter(([key]) => key.startsWith(prefix))
        .slice(0, limit)
        .map(([key, value]) => ({ key, value: structuredClone(value), updatedAt: new Date(0) }));
    },
    async update<T>(key: string, fn: (current: T | undefined) => T): Promise<T> {
      kv.writes++;
      const next = fn(structuredClone(data.get(key)) as T | undefined);
      data.set(key, structuredClone(next));
      return next;
    },
  };
  return kv;
}
