// Email that arrives: the service sends through a real SMTP server on loopback (smtp-server) and
// each message is read back with a real MIME parser (mailparser). In-process first (real HTTP
// requests, the worker drained by the test's clock; the edit link of the accepted email opens the host's page and its
// proposals bring the changes accepted and refused messages), then the real process: killed between the
// server taking a message and the outbox recording it, and restarted without sending it twice.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClock, TEST_ADMIN_KEY, useTestApp } from "../helpers/app.ts";
import { startSmtpServer, linksOf, type ReceivedMail, type TestSmtpServer } from "../helpers/smtp.ts";
import { checkoutCompleted, signatureHeader, TEST_WEBHOOK_SECRET } from "../helpers/payment.ts";
import { INTERRUPTED_ERROR } from "../../src/lib/mail/outbox.ts";
import { festivalWindow } from "../../src/lib/events/festival-window.ts";
import { freePort } from "../helpers/processes.ts";

const ADMIN = { "x-admin-key": TEST_ADMIN_KEY };
const SITE = "http://finder.test";

function submission(n: number, overrides: Record<string, unknown> = {}) {
  return {
    eventName: `Canal <Session> & Friends ${n}`,
    date: "2026-06-21",
    startTime: "18:00",
    endTime: "22:00",
    location: "Quai de Valmy",
    arrondissement: "10",
    hostEmail: `host${n}@example.com`,
    proofLink: `https://example.com/events/${n}`,
    formStartedAt: "2026-06-18T09:58:00.000Z",
    ...overrides,
  };
}

/** The checks every message passes: headers, a multipart/alternative body with both parts, escaping. */
function expectWellFormed(mail: ReceivedMail, to: string, language: "fr" | "en") {
  const m = mail.parsed;
  expect(m.to && !Array.isArray(m.to) ? m.to.text : "").toBe(to);
  expect(mail.envelopeTo).toEqual([to]);
  expect(m.from?.text).toBe('"finder" <no-reply@finder.test>');
  expect(m.messageId).toMatch(/^<[0-9a-f-]{36}@finder\.test>$/);
  expect(m.headers.get("content-language")).toBe(language);
  expect(m.headers.get("auto-submitted")).toBe("auto-generated");
  expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
  expect(typeof m.text).toBe("string");
  expect(typeof m.html).toBe("string");
  expect((m.html as string).startsWith("<!doctype html>")).toBe(true);
  expect(m.html as string).toContain(`<html lang="${language}">`);
  // Every link of the text part is in the HTML part too.
  for (const link of linksOf(m.text!)) expect(m.html as string).toContain(`href="${Bun.escapeHTML(link)}"`);
}

describe("email through a real SMTP server (in process)", () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  const clock = createClock("2026-06-19T10:00:00Z");
  const ctx = useTestApp(() => ({ clock, env: { SMTP_URL: smtp.url, DATA_MODE: "remote", PAYMENT_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET } }));
  // Declared after the app's: the app closes before the server it sends to.
  afterAll(() => smtp?.close());
  const json = async (path: string, init: RequestInit = {}) => {
    const res = await ctx.request(path, { ...init, headers: { "content-type": "application/json", ...ADMIN, ...(init.headers as Record<string, string>) } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const submit = (body: unknown, language: string) =>
    ctx.request(`/api/event-submissions?lang=${language}`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": `192.0.2.${Math.floor(Math.random() * 200) + 1}` }, body: JSON.stringify(body) });
  const lastMail = () => smtp.received.at(-1)!;
  /** Follows a link of a message through the app (the site's host is the test app). */
  const open = async (link: string): Promise<Response> => {
    expect(link.startsWith(`${SITE}/`)).toBe(true);
    let res = await ctx.request(link.slice(SITE.length));
    if (res.status === 307 || res.status === 302) res = await ctx.request(res.headers.get("location")!);
    return res;
  };

  let acceptedKey = "";

  test("submission received (fr): subject, both parts, escaped name, date in words", async () => {
    expect((await submit(submission(1), "fr")).status).toBe(200);
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1, retried: 0, failed: 0 });
    const mail = lastMail();
    expectWellFormed(mail, "host1@example.com", "fr");
    expect(mail.parsed.subject).toBe("Nous avons bien reçu « Canal <Session> & Friends 1 »");
    expect(mail.parsed.text).toContain("Votre événement « Canal <Session> & Friends 1 » du dim. 21 juin est bien arrivé.");
    expect(mail.parsed.html as string).toContain("« Canal &lt;Session&gt; &amp; Friends 1 »");
    expect(mail.parsed.html as string).not.toContain("<Session>");
  });

  let editLink = "";

  test("accepted (fr): the public link opens the event and the private edit link opens the host's edit page", async () => {
    const { body } = await json("/api/admin/submissions?status=pending");
    const id = body.submissions[0].id;
    const accepted = await json(`/api/admin/submissions/${id}/accept`, { method: "POST", body: "{}" });
    expect(accepted.status).toBe(200);
    acceptedKey = accepted.body.eventKey;
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1 });
    const mail = lastMail();
    expectWellFormed(mail, "host1@example.com", "fr");
    expect(mail.parsed.subject).toBe("« Canal <Session> & Friends 1 » est publié");
    const links = linksOf(mail.parsed.text!);
    expect(links).toHaveLength(2);
    expect(links[0]).toBe(`${SITE}/event/${acceptedKey}/canal-session-friends-1`);
    expect(links[1]).toMatch(new RegExp(`^${SITE}/edit-event/[0-9a-f-]{36}\\?token=[A-Za-z0-9_-]{43}$`));
    expect(mail.parsed.text).toContain("Pour modifier ou annuler votre événement, utilisez ce lien personnel (ne le partagez pas) :");
    const page = await open(links[0]);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Canal &lt;Session&gt; &amp; Friends 1");
    editLink = links[1];
    const edit = await open(editLink);
    expect(edit.status).toBe(200);
    expect(edit.headers.get("referrer-policy")).toBe("same-origin");
    const html = await edit.text();
    expect(html).toContain("Modifier votre événement");
    expect(html).toContain("Canal &lt;Session&gt; &amp; Friends 1");
  });

  test("changes accepted and changes refused (fr): each field old → new, the moderator's reason, links that work", async () => {
    const url = new URL(editLink);
    const token = url.searchParams.get("token")!;
    const propose = (fields: Record<string, string>) =>
      ctx.request(url.pathname, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token, ...fields }).toString() });
    expect((await propose({ startTime: "19:30", location: "Quai de Jemmapes" })).status).toBe(200);
    const pending = await json("/api/admin/changes");
    const accepted = await json(`/api/admin/changes/${pending.body.changes[0].id}/accept`, { method: "POST" });
    expect(accepted.status).toBe(200);
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1 });
    const yes = lastMail();
    expectWellFormed(yes, "host1@example.com", "fr");
    expect(yes.parsed.subject).toBe("Vos changements pour « Canal <Session> & Friends 1 » sont publiés");
    expect(yes.parsed.text).toContain("Heure de début : 18:00 → 19:30\nLieu : Quai de Valmy → Quai de Jemmapes");
    expect(yes.parsed.html as string).toContain("Heure de début : 18:00 → 19:30<br>");
    const [publicLink] = linksOf(yes.parsed.text!);
    const shown = await open(publicLink);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain("Quai de Jemmapes");

    expect((await propose({ endTime: "23:59", notes: "<b>Free</b> entry" })).status).toBe(200);
    const again = await json("/api/admin/changes");
    const refused = await json(`/api/admin/changes/${again.body.changes[0].id}/refuse`, { method: "POST", body: JSON.stringify({ reason: "The venue closes at <22:00>" }) });
    expect(refused.status).toBe(200);
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1 });
    const no = lastMail();
    expectWellFormed(no, "host1@example.com", "fr");
    expect(no.parsed.subject).toBe("Vos changements pour « Canal <Session> & Friends 1 » n'ont pas été publiés");
    expect(no.parsed.text).toContain("Heure de fin : 22:00 → 23:59");
    expect(no.parsed.text).toContain("Notes : — → <b>Free</b> entry");
    expect(no.parsed.text).toContain("Motif : The venue closes at <22:00>");
    expect(no.parsed.html as string).toContain("Motif : The venue closes at &lt;22:00&gt;");
    expect(no.parsed.html as string).not.toContain("<b>Free</b>");
    // The edit link still opens after both reviews.
    expect((await open(editLink)).status).toBe(200);
  });

  test("declined (en): the moderator's reason and note", async () => {
    expect((await submit(submission(2), "en")).status).toBe(200);
    await ctx.deps.outbox.drain();
    const received = lastMail();
    expectWellFormed(received, "host2@example.com", "en");
    expect(received.parsed.subject).toBe("We received \u201cCanal <Session> & Friends 2\u201d");
    const { body } = await json("/api/admin/submissions?status=pending");
    const declined = await json(`/api/admin/submissions/${body.submissions[0].id}/decline`, { method: "POST", body: JSON.stringify({ reason: "other", note: "The venue is <closed> that night" }) });
    expect(declined.status).toBe(200);
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1 });
    const mail = lastMail();
    expectWellFormed(mail, "host2@example.com", "en");
    expect(mail.parsed.subject).toBe("\u201cCanal <Session> & Friends 2\u201d was not published");
    expect(mail.parsed.text).toContain("Reason: other");
    expect(mail.parsed.text).toContain("Note from the team: The venue is <closed> that night");
    expect(mail.parsed.html as string).toContain("The venue is &lt;closed&gt; that night");
  });

  test("partner order confirmed (with the statistics link that opens the report), then placement started and ended at their moments", async () => {
    const envelope = checkoutCompleted({ session: { customer_details: { email: "partner@example.com", name: "Partner" }, locale: "fr", metadata: { package_key: "spotlight-standard", event_name: "Canal <Session> & Friends 1" }, custom_fields: [] } });
    const raw = JSON.stringify(envelope);
    const t = Math.floor(clock.now().getTime() / 1000);
    const hook = await ctx.request("/api/webhooks/payment", { method: "POST", headers: { "content-type": "application/json", "payment-signature": await signatureHeader(raw, t) }, body: raw });
    expect(hook.status).toBe(200);
    const { body } = await json("/api/admin/orders?status=pending");
    const orderId = body.orders[0].id;
    const fulfilled = await json(`/api/admin/orders/${orderId}/fulfil`, { method: "POST", body: JSON.stringify({ eventKey: acceptedKey, tier: "spotlight", startAt: "2026-06-19T14:00", durationHours: 4 }) });
    expect(fulfilled.status).toBe(200);
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1 });
    const confirmed = lastMail();
    expectWellFormed(confirmed, "partner@example.com", "fr");
    expect(confirmed.parsed.subject).toBe("Votre commande pour « Canal <Session> & Friends 1 » est confirmée");
    expect(confirmed.parsed.text).toContain("Votre mise en avant Spotlight pour « Canal <Session> & Friends 1 » est confirmée, du 19 juin à 14:00 au 19 juin à 18:00 (heure de Paris).");
    const [statsLink] = linksOf(confirmed.parsed.text!);
    expect(statsLink).toBe(fulfilled.body.statsUrl);
    const report = await open(statsLink);
    expect(report.status).toBe(200);
    expect(await report.text()).toContain("Partner ROI");

    // Not yet: the started and ended messages wait for their moments.
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 0 });
    clock.set("2026-06-19T12:00:02Z");
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1 });
    expectWellFormed(lastMail(), "partner@example.com", "fr");
    expect(lastMail().parsed.subject).toBe("« Canal <Session> & Friends 1 » est en avant à partir de maintenant");
    expect(lastMail().parsed.text).toContain("a commencé et dure jusqu'au 19 juin à 18:00");
    clock.set("2026-06-19T16:00:02Z");
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1 });
    expectWellFormed(lastMail(), "partner@example.com", "fr");
    expect(lastMail().parsed.subject).toBe("La mise en avant de « Canal <Session> & Friends 1 » est terminée");
    expect((await open(linksOf(lastMail().parsed.text!)[0])).status).toBe(200);
  });

  test("a refused delivery (451) is retried after the back-off and arrives once", async () => {
    const before = smtp.received.length;
    const triedBefore = smtp.recipientsTried;
    smtp.refuseNext(1);
    expect((await submit(submission(3), "en")).status).toBe(200);
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 0, retried: 1 });
    expect(smtp.received.length).toBe(before);
    const listed = await json("/api/admin/outbox?status=queued");
    expect(listed.body.counts.queued).toBe(1);
    expect(listed.body.messages).toHaveLength(1);
    expect(listed.body.messages[0]).toMatchObject({ kind: "submission_received", attempts: 1, lastError: "SMTP 451 after RCPT TO", recipient: "host3@example.com" });
    // The back-off (5 s) has not passed: nothing is tried.
    clock.advance(3000);
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 0, retried: 0 });
    clock.advance(2500);
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1 });
    expect(smtp.received.length).toBe(before + 1);
    expect(smtp.recipientsTried).toBe(triedBefore + 2);
    expect(lastMail().parsed.messageId).toBe(listed.body.messages[0].messageId);
    const sent = await json(`/api/admin/outbox/${listed.body.messages[0].id}`);
    expect(sent.body.message).toMatchObject({ status: "sent", attempts: 2, lastError: null });
  });

  test("one message per cause: a second drain sends nothing and every Message-ID arrived once", async () => {
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 0 });
    const ids = smtp.received.map((m) => m.parsed.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(10);
  });
});

// ---------------------------------------------------------------------------------------------
// The real process, killed between the server taking a message and the outbox marking it sent.

const ROOT = join(import.meta.dir, "../..");

async function waitForHealth(port: number, timeoutMs = 40_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return true;
    } catch {}
    await Bun.sleep(100);
  }
  return false;
}

describe("email from the real process", () => {
  test("killed after the server took the message and before it was marked sent: after a restart it is not sent again, the console shows it interrupted, and Resend sends it", async () => {
    const smtp = await startSmtpServer();
    const dataDir = mkdtempSync(join(tmpdir(), "finder-mail-"));
    const port = freePort();
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      NODE_ENV: "test",
      // Not "test": that mode keeps the database in memory, and this one must survive the kill.
      DATA_MODE: "local",
      AUTH_SECRET: "m".repeat(40),
      ADMIN_KEY: TEST_ADMIN_KEY,
      SMTP_URL: smtp.url,
      NEXT_PUBLIC_SITE_URL: "http://finder.test",
    };
    const spawn = () => Bun.spawn([process.execPath, "src/index.ts"], { cwd: ROOT, env, stdout: "ignore", stderr: "ignore" });
    let child = spawn();
    try {
      expect(await waitForHealth(port)).toBe(true);
      // The real process runs on the real clock: the date is inside its coming festival.
      // The first message to arrive kills the sender before the server's "250 OK" reaches it.
      let killed = false;
      smtp.onMessage = async () => {
        if (killed) return;
        killed = true;
        child.kill("SIGKILL");
        await child.exited;
      };
      const res = await fetch(`http://127.0.0.1:${port}/api/event-submissions?lang=en`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(submission(9, { date: festivalWindow(new Date(), {}).to })) });
      expect(res.status).toBe(200);
      await smtp.waitFor(1);
      await child.exited;
      expect(killed).toBe(true);

      child = spawn();
      expect(await waitForHealth(port)).toBe(true);
      // Two ticks of the 5-second send-outbox task.
      await Bun.sleep(11_000);
      expect(smtp.received).toHaveLength(1);
      const listed = (await (await fetch(`http://127.0.0.1:${port}/api/admin/outbox`, { headers: ADMIN })).json()) as any;
      expect(listed.counts).toMatchObject({ failed: 1, sent: 0, queued: 0, sending: 0 });
      const [message] = listed.messages;
      expect(message).toMatchObject({ status: "failed", lastError: INTERRUPTED_ERROR, messageId: smtp.received[0].parsed.messageId });

      const resent = await fetch(`http://127.0.0.1:${port}/api/admin/outbox/${message.id}/resend`, { method: "POST", headers: ADMIN });
      expect(resent.status).toBe(200);
      await smtp.waitFor(2, 15_000);
      expect(smtp.received[1].parsed.messageId).toBe(message.messageId);
      const activity = (await (await fetch(`http://127.0.0.1:${port}/api/admin/activity?action=mail`, { headers: ADMIN })).json()) as any;
      expect(activity.entries).toMatchObject([{ action: "mail.resend", targetType: "message", targetId: message.id, outcome: "ok" }]);
      child.kill("SIGTERM");
      expect(await child.exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
      await smtp.close();
    }
  }, 120_000);
});
