// Google Geocoding JSON API client: query building, confidence scoring and error categories (domain.md §6.4).

import type { Coordinates } from "../sheet/types.ts";
import type { Logger } from "../logger.ts";

/** The real provider endpoint; tests and config point `apiUrl` elsewhere. */
export const DEFAULT_GEOCODING_API_URL = "https://maps.googleapis.com/maps/api/geocode/json";

/** Per-request timeout of the provider call (spec: 10 s). */
export const GEOCODING_TIMEOUT_MS = 10_000;

/** The Paris box used both as the request bias and for the in-bounds check. */
export const PARIS_BOUNDS = Object.freeze({ north: 48.92, south: 48.8, east: 2.48, west: 2.22 });

const BOUNDS_PARAM = `${PARIS_BOUNDS.south},${PARIS_BOUNDS.west}|${PARIS_BOUNDS.north},${PARIS_BOUNDS.east}`;

const BASE_CONFIDENCE: Record<string, number> = {
  ROOFTOP: 0.95,
  RANGE_INTERPOLATED: 0.85,
  GEOMETRIC_CENTER: 0.7,
  APPROXIMATE: 0.5,
};
const UNKNOWN_TYPE_CONFIDENCE = 0.3;

// error_message phrases that mean the key or project is unusable, whatever the status says.
const FATAL_MESSAGE = /api[ _-]?key|billing|not (?:been )?(?:enabled|activated)|trial|pay[- ]as[- ]you[- ]go/i;

/** How the geocoder is reached; `apiKey` missing means every call fails with CONFIG_ERROR. */
export interface GeocoderOptions {
  apiKey?: string;
  /** Full endpoint URL; defaults to the Google endpoint. */
  apiUrl?: string;
  /** Defaults to 10 000 ms. */
  timeoutMs?: number;
  log: Logger;
  fetch?: typeof fetch;
}

/** One venue to geocode: the location name and its arrondissement 1–20. */
export interface LocationQuery {
  name: string;
  arrondissement: number;
}

/** A usable provider answer. */
export interface GeocodeResult {
  query: string;
  coordinates: Coordinates;
  /** 0–1, two decimals. */
  confidence: number;
  locationType: string | null;
  formattedAddress: string | null;
  placeId: string | null;
  inParisBounds: boolean;
}

/** The six failure categories of the §6.4 table. */
export type GeocodingErrorCategory = "API_ERROR" | "NO_RESULTS" | "RATE_LIMIT" | "NETWORK_ERROR" | "PARSE_ERROR" | "CONFIG_ERROR";

/** A categorised geocoding failure; `retryable` is transient, `fatal` switches the run to fallbacks. */
export class GeocodingError extends Error {
  readonly category: GeocodingErrorCategory;
  readonly retryable: boolean;
  readonly fatal: boolean;

  constructor(category: GeocodingErrorCategory, message: string, retryable = false) {
    super(message);
    this.name = "GeocodingError";
    this.category = category;
    this.retryable = retryable;
    this.fatal = category === "CONFIG_ERROR";
  }
}

/** The provider query: `<trimmed name>, <N>e arrondissement, Paris, France` (spec form, `1e` included). */
export function buildGeocodingQuery(query: LocationQuery): string {
  return `${query.name.trim()}, ${query.arrondissement}e arrondissement, Paris, France`;
}

/** True when the point lies inside the Paris box (edges included). */
export function isInParisBounds(point: Coordinates): boolean {
  return (
    point.lat >= PARIS_BOUNDS.south &&
    point.lat <= PARIS_BOUNDS.north &&
    point.lng >= PARIS_BOUNDS.west &&
    point.lng <= PARIS_BOUNDS.east
  );
}

/** True when a formatted address names arrondissement `n`: `<n>e` (`1er`/`1e`), `750NN`, or `75116` for 16. */
export function addressNamesArrondissement(formattedAddress: string, n: number): boolean {
  const ordinal = n === 1 ? "1(?:er|e)" : `${n}e`;
  const postal = `750${String(n).padStart(2, "0")}${n === 16 ? "|75116" : ""}`;
  const pattern = new RegExp(`(?<![0-9a-z])(?:${ordinal})(?![0-9a-z])|(?<![0-9])(?:${postal})(?![0-9])`, "i");
  return pattern.test(formattedAddress);
}

/** Confidence of a result: base by location type, +0.1 in bounds, +0.1 arrondissement named, capped at 1, two decimals. */
export function scoreConfidence(
  locationType: string | null,
  point: Coordinates,
  formattedAddress: string | null,
  arrondissement: number,
): number {
  let score = (locationType !== null ? BASE_CONFIDENCE[locationType] : undefined) ?? UNKNOWN_TYPE_CONFIDENCE;
  if (isInParisBounds(point)) score += 0.1;
  if (formattedAddress !== null && addressNamesArrondissement(formattedAddress, arrondissement)) score += 0.1;
  return Math.round(Math.min(score, 1) * 100) / 100;
}

function isValidQuery(query: LocationQuery): boolean {
  return query.name.trim() !== "" && Number.isInteger(query.arrondissement) && query.arrondissement >= 1 && query.arrondissement <= 20;
}

function errorForHttpStatus(status: number, body: string): GeocodingError {
  const detail = `Geocoding API answered HTTP ${status}`;
  if (status === 429) return new GeocodingError("RATE_LIMIT", detail, true);
  if (status === 401 || status === 403) return new GeocodingError("CONFIG_ERROR", `${detail}: ${body.slice(0, 200)}`.trim());
  return new GeocodingError("API_ERROR", detail, status >= 500);
}

function errorForApiStatus(status: string, errorMessage: string | undefined): GeocodingError {
  const detail = errorMessage ? `${status}: ${errorMessage}` : status;
  if (errorMessage && FATAL_MESSAGE.test(errorMessage)) return new GeocodingError("CONFIG_ERROR", detail);
  switch (status) {
    case "ZERO_RESULTS":
      return new GeocodingError("NO_RESULTS", "No results for this address");
    case "OVER_QUERY_LIMIT":
      return new GeocodingError("RATE_LIMIT", detail, true);
    case "REQUEST_DENIED":
    case "OVER_DAILY_LIMIT":
      return new GeocodingError("CONFIG_ERROR", detail);
    case "UNKNOWN_ERROR":
      return new GeocodingError("API_ERROR", detail, true);
    default:
      return new GeocodingError("API_ERROR", detail);
  }
}

/** Reads the fields §6.4 lists from a parsed body; throws a categorised error for anything but a usable OK. */
function readResult(body: unknown, query: LocationQuery, queryText: string): GeocodeResult {
  if (typeof body !== "object" || body === null || typeof (body as { status?: unknown }).status !== "string") {
    throw new GeocodingError("PARSE_ERROR", "Geocoding response has no status");
  }
  const { status, error_message: errorMessage, results } = body as { status: string; error_message?: unknown; results?: unknown };
  if (status !== "OK") throw errorForApiStatus(status, typeof errorMessage === "string" ? errorMessage : undefined);
  if (!Array.isArray(results) || results.length === 0) throw new GeocodingError("NO_RESULTS", "No results for this address");

  const first = results[0] as {
    geometry?: { location?: { lat?: unknown; lng?: unknown }; location_type?: unknown };
    formatted_address?: unknown;
    place_id?: unknown;
  } | null;
  const lat = first?.geometry?.location?.lat;
  const lng = first?.geometry?.location?.lng;
  if (typeof lat !== "number" || typeof lng !== "number" || !Number.isFinite(lat) || !Number.isFinite(lng)) {
    throw new GeocodingError("PARSE_ERROR", "Geocoding result has no numeric lat/lng");
  }
  const locationType = typeof first?.geometry?.location_type === "string" ? first.geometry.location_type : null;
  const formattedAddress = typeof first?.formatted_address === "string" ? first.formatted_address : null;
  const placeId = typeof first?.place_id === "string" ? first.place_id : null;
  const coordinates = { lat, lng };
  return {
    query: queryText,
    coordinates,
    confidence: scoreConfidence(locationType, coordinates, formattedAddress, query.arrondissement),
    locationType,
    formattedAddress,
    placeId,
    inParisBounds: isInParisBounds(coordinates),
  };
}

/** Geocodes one venue; resolves with a result or rejects with a GeocodingError (never anything else). */
export async function geocodeLocation(query: LocationQuery, options: GeocoderOptions): Promise<GeocodeResult> {
  const apiKey = options.apiKey?.trim();
  if (!apiKey) throw new GeocodingError("CONFIG_ERROR", "Geocoding API key is not configured");
  // An empty name or an arrondissement outside 1–20 never reaches the API.
  if (!isValidQuery(query)) throw new GeocodingError("NO_RESULTS", "Location is not eligible for geocoding");

  const queryText = buildGeocodingQuery(query);
  const url = new URL(options.apiUrl ?? DEFAULT_GEOCODING_API_URL);
  url.searchParams.set("address", queryText);
  url.searchParams.set("key", apiKey);
  url.searchParams.set("region", "fr");
  url.searchParams.set("bounds", BOUNDS_PARAM);

  const timeoutMs = options.timeoutMs ?? GEOCODING_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const doFetch = options.fetch ?? fetch;
  let status: number;
  let text: string;
  try {
    const response = await doFetch(url, { signal, headers: { accept: "application/json" } });
    status = response.status;
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    const message = timedOut ? `Geocoding request timed out after ${timeoutMs} ms` : `Geocoding request failed: ${error instanceof Error ? error.message : String(error)}`;
    throw new GeocodingError("NETWORK_ERROR", message, true);
  }
  if (status < 200 || status > 299) throw errorForHttpStatus(status, text);

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new GeocodingError("PARSE_ERROR", "Geocoding response is not JSON");
  }
  const result = readResult(body, query, queryText);
  if (!result.inParisBounds) {
    options.log.warn("geocoding", "Geocoded location is outside the Paris bounds", {
      query: queryText,
      lat: result.coordinates.lat,
      lng: result.coordinates.lng,
    });
  }
  return result;
}
