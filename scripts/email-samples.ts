// Rewrites the "Every message, with a sample" section of docs/email.md from the real templates
// (src/lib/mail/samples.ts). Run after changing a template or a catalogue's email.* text:
//   bun scripts/email-samples.ts
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EMAIL_SAMPLES_END, EMAIL_SAMPLES_START, emailSamplesMarkdown } from "../src/lib/mail/samples.ts";

const path = join(import.meta.dir, "../docs/email.md");
const doc = readFileSync(path, "utf8");
const start = doc.indexOf(EMAIL_SAMPLES_START);
const end = doc.indexOf(EMAIL_SAMPLES_END);
if (start < 0 || end < start) throw new Error("docs/email.md has no samples markers");
writeFileSync(path, doc.slice(0, start + EMAIL_SAMPLES_START.length) + "\n\n" + emailSamplesMarkdown() + "\n" + doc.slice(end));
console.log("docs/email.md samples rewritten");
