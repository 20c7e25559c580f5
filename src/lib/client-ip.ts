// Client IP for rate limits and session records: first x-forwarded-for entry, else x-real-ip, else "unknown".
// The first forwarded entry is client-controlled: the service must sit behind a proxy that overwrites it.

/** Returns the caller's IP for rate limiting and session records. */
export function clientIp(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for");
  if (forwarded !== null) {
    const first = forwarded.split(",")[0]?.trim();
    return first ? first.slice(0, 100) : "unknown";
  }
  const real = headers.get("x-real-ip")?.trim();
  return real ? real.slice(0, 100) : "unknown";
}
