// A bare Bun.serve answering every request with one file's bytes and fixed headers: the baseline
// the app is compared with. Usage: bun bench/servers/bare.server.ts <body-file> '<headers json>'

import { readFileSync } from "node:fs";

const bytes = readFileSync(process.argv[2]);
const headers = JSON.parse(process.argv[3] ?? "{}") as Record<string, string>;
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(bytes, { headers }) });
console.log(`READY ${server.port}`);
process.on("SIGTERM", () => {
  server.stop(true);
  process.exit(0);
});
