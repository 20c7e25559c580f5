// Load-generation helpers for the benchmarks: a bounded closed-loop HTTP client on loopback.

/** Result of one load run. */
export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Sends `total` requests with `concurrency` workers against a loopback URL. */
export async function load(
  makeRequest: () => Request,
  options: { total: number; concurrency: number; expectStatus?: number; init?: RequestInit & { decompress?: boolean } },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let sent = 0;
  let errors = 0;
  const started = performance.now();
  async function worker() {
    while (sent < options.total) {
      sent++;
      const t0 = performance.now();
      try {
        const res = await fetch(makeRequest(), options.init);
        await res.arrayBuffer();
        if (options.expectStatus !== undefined && res.status !== options.expectStatus) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** Prints one benchmark line with its ratio to the baseline of the same run. */
export function report(name: string, subject: LoadResult, baseline: LoadResult): void {
  const ratio = subject.rps / baseline.rps;
  console.log(
    `${name.padEnd(44)} ${subject.rps.toFixed(0).padStart(7)} req/s  p99 ${subject.p99.toFixed(2).padStart(6)} ms  | baseline ${baseline.rps.toFixed(0).padStart(7)} req/s p99 ${baseline.p99.toFixed(2).padStart(6)} ms | ratio ${ratio.toFixed(2)}x${subject.errors ? `  errors ${subject.errors}` : ""}`,
  );
}
