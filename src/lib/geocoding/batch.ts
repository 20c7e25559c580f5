// Batch geocoding: 10 venues in parallel, 100 ms between batches, bounded retries of transient
// failures (see docs/live-events.md, "The geocoding provider").

import { geocodeLocation, GeocodingError, type GeocodeResult, type GeocoderOptions, type GeocodingErrorCategory, type LocationQuery } from "./geocoder.ts";

/** Venues geocoded in parallel per batch. */
export const GEOCODING_BATCH_SIZE = 10;
/** Pause between two batches. */
export const GEOCODING_BATCH_DELAY_MS = 100;
/** Waits before the second and third attempt of a transient failure. */
export const GEOCODING_RETRY_DELAYS_MS: readonly number[] = [100, 200];

/** Outcome of a batch run; `successRate` is a fraction 0–1 (0 when `total` is 0). */
export interface BatchGeocodeResult {
  successful: { address: LocationQuery; result: GeocodeResult }[];
  failed: { address: LocationQuery; category: GeocodingErrorCategory; message: string }[];
  total: number;
  successRate: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function asGeocodingError(error: unknown): GeocodingError {
  if (error instanceof GeocodingError) return error;
  return new GeocodingError("API_ERROR", error instanceof Error ? error.message : String(error));
}

/**
 * Geocodes every address. After a fatal (CONFIG_ERROR) answer no further request is sent:
 * the remaining addresses fail with that same error, so callers can switch to fallbacks.
 */
export async function geocodeBatch(
  addresses: readonly LocationQuery[],
  options: GeocoderOptions,
  onProgress?: (done: number, total: number) => void,
): Promise<BatchGeocodeResult> {
  const outcome: BatchGeocodeResult = { successful: [], failed: [], total: addresses.length, successRate: 0 };
  let fatal: GeocodingError | undefined;

  async function geocodeWithRetries(address: LocationQuery): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (fatal) {
        outcome.failed.push({ address, category: fatal.category, message: fatal.message });
        return;
      }
      try {
        const result = await geocodeLocation(address, options);
        outcome.successful.push({ address, result });
        return;
      } catch (thrown) {
        const error = asGeocodingError(thrown);
        if (error.fatal) fatal ??= error;
        const delay = GEOCODING_RETRY_DELAYS_MS[attempt];
        if (!error.retryable || delay === undefined) {
          outcome.failed.push({ address, category: error.category, message: error.message });
          return;
        }
        await sleep(delay);
      }
    }
  }

  for (let start = 0; start < addresses.length; start += GEOCODING_BATCH_SIZE) {
    if (start > 0 && !fatal) await sleep(GEOCODING_BATCH_DELAY_MS);
    await Promise.all(addresses.slice(start, start + GEOCODING_BATCH_SIZE).map(geocodeWithRetries));
    onProgress?.(outcome.successful.length + outcome.failed.length, addresses.length);
  }
  outcome.successRate = outcome.total === 0 ? 0 : outcome.successful.length / outcome.total;
  return outcome;
}
