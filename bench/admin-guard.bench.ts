// Admin-token verification cost per request: a trivial route behind the admin guard (Bearer token:
// HS256 check + one session/version lookup) and with the key, against the same route without the
// guard, in one run on one server process; load from wrk on the other core. Runs on embedded
// PGlite, and also on a Postgres server when TEST_DATABASE_URL is set.

import { BENCH_ADMIN_KEY } from "./fixtures.ts";
import { at, compareWrk, startServer } from "./lib.ts";

async function run(databaseUrl: string | undefined): Promise<void> {
  const server = await startServer("servers/admin-guard.server.ts", databaseUrl ? [databaseUrl] : []);
  const { token, engine } = server.info as { token: string; engine: string };
  try {
    const bearer = { authorization: `Bearer ${token}` };
    const viaBearer = await compareWrk(`admin guard (${engine}): Bearer vs no guard`, at(server, "/guarded"), at(server, "/open"), { headers: bearer, connections: 32 });
    const viaKey = await compareWrk(`admin guard (${engine}): X-Admin-Key vs no guard`, at(server, "/guarded"), at(server, "/open"), { headers: { "x-admin-key": BENCH_ADMIN_KEY }, connections: 32 });
    const added = (r: { subject: { rps: number }; baseline: { rps: number } }) => ((1 / r.subject.rps - 1 / r.baseline.rps) * 1e6).toFixed(0);
    console.log(`${"".padEnd(52)} added per request (1/throughput): Bearer ~${added(viaBearer)} µs, key ~${added(viaKey)} µs`);
  } finally {
    await server.stop();
  }
}

export async function benchAdminGuard(): Promise<void> {
  await run(undefined);
  const url = process.env.TEST_DATABASE_URL?.trim();
  if (url) await run(url);
}
