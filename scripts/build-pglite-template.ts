// Install step: makes the embedded database templates so a newcomer's first `npm start` skips
// initdb (the migrated template) and the first-start seed (the seeded one, made from the local CSV
// a start reads: LOCAL_EVENTS_CSV, else data/events.csv). Never fails the install: without a
// template the first start is only slower.

import { readFileSync } from "node:fs";
import { buildPgliteTemplate, buildSeededPgliteTemplate } from "../src/lib/db/pglite-template.ts";
import { templateSeed } from "../src/lib/events/pipeline.ts";

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function timed<T>(make: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  return [await make(), Math.round(performance.now() - started)];
}

try {
  const [path, ms] = await timed(() => buildPgliteTemplate());
  console.log(`finder: embedded database template ready (${path}, ${ms} ms)`);
  const csvPath = process.env.LOCAL_EVENTS_CSV || "data/events.csv";
  try {
    const csv = readFileSync(csvPath, "utf8");
    const [seeded, seededMs] = await timed(() => buildSeededPgliteTemplate(csv, templateSeed(csv).seed));
    if (seeded) console.log(`finder: seeded embedded database template ready (${seeded}, from ${csvPath}, ${seededMs} ms)`);
    else console.warn(`finder: no seeded embedded database template (${csvPath} is not a valid sheet); a first start seeds the database itself`);
  } catch (error) {
    console.warn(`finder: seeded embedded database template not built (${reason(error)}); a first start seeds the database itself`);
  }
} catch (error) {
  console.warn(`finder: embedded database template not built (${reason(error)}); the first start will create the database itself`);
}
process.exit(0);
