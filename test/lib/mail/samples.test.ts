// docs/email.md lists every message with a sample text part in both languages, rendered from the
// real templates: this fails when a template, a catalogue text or a new message kind is not
// reflected there (run `bun scripts/email-samples.ts`).

import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EMAIL_SAMPLES_END, EMAIL_SAMPLES_START, emailSamplesMarkdown, SAMPLE_PARAMS } from "../../../src/lib/mail/samples.ts";
import { MESSAGE_KINDS, renderMessage } from "../../../src/lib/mail/templates.ts";

const doc = readFileSync(join(import.meta.dir, "../../../docs/email.md"), "utf8");

test("the samples section of docs/email.md is the templates' output", () => {
  const start = doc.indexOf(EMAIL_SAMPLES_START);
  const end = doc.indexOf(EMAIL_SAMPLES_END);
  expect(start).toBeGreaterThan(0);
  expect(doc.slice(start + EMAIL_SAMPLES_START.length, end).trim()).toBe(emailSamplesMarkdown().trim());
});

test("every message kind has a sample in both languages, and the messages table names it", () => {
  for (const kind of MESSAGE_KINDS) {
    expect(doc).toContain(`### \`${kind}\``);
    expect(doc).toContain(`| \`${kind}\` |`);
    const fr = renderMessage(kind, "fr", SAMPLE_PARAMS[kind] as unknown as Record<string, unknown>);
    const en = renderMessage(kind, "en", SAMPLE_PARAMS[kind] as unknown as Record<string, unknown>);
    expect(fr.text).not.toBe(en.text);
    expect(fr.text.startsWith("Bonjour,")).toBe(true);
    expect(en.text.startsWith("Hello,")).toBe(true);
  }
});

test("the changes messages list each field old → new in the form's order, and the refusal its reason", () => {
  const accepted = renderMessage("changes_accepted", "en", SAMPLE_PARAMS.changes_accepted as unknown as Record<string, unknown>);
  expect(accepted.text).toContain("Start time: 19:00 → 21:00\nVenue: Quai de Valmy → Quai de Jemmapes");
  expect(accepted.html).toContain("Start time: 19:00 → 21:00<br>");
  const refused = renderMessage("changes_refused", "fr", { ...SAMPLE_PARAMS.changes_refused, reason: "<script>x</script>" } as unknown as Record<string, unknown>);
  expect(refused.text).toContain("Motif : <script>x</script>");
  expect(refused.html).not.toContain("<script>");
  expect(refused.text).toContain("Heure de fin : 22:00 → 23:59");
});
