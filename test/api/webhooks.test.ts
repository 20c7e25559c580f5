import { WEBHOOK_MAX_BODY_BYTES } from "../../src/api/webhooks.ts";
import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../helpers/app.ts";
import { resetDatabase } from "../helpers/database.ts";
import { checkoutCompleted, signatureHeader, signPayload, TEST_WEBHOOK_SECRET } from "../helpers/payment.ts";

const ctx = useTestApp({ env: { PAYMENT_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, PAYMENT_LINK_PACKAGES: JSON.stringify({ plink_promo: "promoted-listing" }) } });
const unconfigured = useTestApp({ keepData: true });
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-18T10:00:00Z");
});

const nowSeconds = () => Math.floor(ctx.clock.now().getTime() / 1000);

function post(body: string | Uint8Array, signature: string | null, target = ctx, extraHeaders: [string, string][] = []) {
  const headers = new Headers({ "content-type": "application/json" });
  if (signature !== null) headers.set("payment-signature", signature);
  for (const [name, value] of extraHeaders) headers.append(name, value);
  return target.request("/api/webhooks/payment", { method: "POST", headers, body: body as BodyInit });
}

async function deliver(envelope: unknown, at = nowSeconds()) {
  const body = JSON.stringify(envelope);
  return post(body, await signatureHeader(body, at));
}

async function orders() {
  return ctx.deps.database.query<Record<string, any>>(sql`select * from paid_orders order by created_at, id`);
}

describe("POST /api/webhooks/payment: answers", () => {
  test("503 when PAYMENT_WEBHOOK_SECRET is unset, before anything else", async () => {
    const body = JSON.stringify(checkoutCompleted());
    const res = await post(body, await signatureHeader(body, nowSeconds()), unconfigured);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: "Webhook not configured" });
  });

  test("a signed checkout.session.completed creates one pending order with every field read", async () => {
    const envelope = checkoutCompleted({ id: "evt_fields" });
    const res = await deliver(envelope);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, handled: true, inserted: true });
    const [order, ...rest] = await orders();
    expect(rest).toHaveLength(0);
    expect(order).toMatchObject({
      source: "payment",
      source_event_id: "evt_fields",
      status: "pending",
      package_key: "spotlight-standard",
      payment_link_id: "plink_spotlight_standard",
      checkout_session_id: envelope.data.object.id,
      customer_email: "host@example.com",
      customer_name: "Canal Collective",
      event_name: "Canal Sunset Session",
      event_url: "https://example.com/canal",
      amount_total_cents: 8000,
      currency: "eur",
      metadata: { package_key: "spotlight-standard" },
      partner_stats_token_hash: null,
    });
    expect(order!.raw_payload).toEqual({ type: "checkout.session.completed", session: envelope.data.object });
  });

  test("fallbacks: package from PAYMENT_LINK_PACKAGES via the link's last path segment, metadata names, customer_name", async () => {
    const res = await deliver(
      checkoutCompleted({
        session: {
          payment_link: "https://buy.example.com/links/plink_promo",
          metadata: { event_name: "Jazz au Canal", event_url: "https://example.com/jazz" },
          custom_fields: [{ key: "EventName", dropdown: { value: "" } }, { key: "note", text: { value: "ignored" } }],
          customer_email: undefined,
          customer_details: { email: "Pay@Example.com" },
          customer_name: "Jazz Org",
        },
      }),
    );
    expect(res.status).toBe(200);
    const [order] = await orders();
    expect(order).toMatchObject({ package_key: "promoted-listing", payment_link_id: "plink_promo", event_name: "Jazz au Canal", event_url: "https://example.com/jazz", customer_email: "Pay@Example.com", customer_name: "Jazz Org" });
  });

  test("custom fields: ticket_link and numeric values; unknown package → null", async () => {
    await deliver(checkoutCompleted({ session: { payment_link: null, metadata: {}, custom_fields: [{ key: "TICKET_LINK", text: { value: "https://t.example/x" } }, { key: "event_name", numeric: { value: 42 } }] } }));
    const [order] = await orders();
    expect(order).toMatchObject({ package_key: null, payment_link_id: null, event_url: "https://t.example/x", event_name: "42" });
  });

  test("a redelivery inserts nothing and answers handled true, inserted false", async () => {
    const envelope = checkoutCompleted({ id: "evt_again" });
    expect(await (await deliver(envelope)).json()).toEqual({ ok: true, handled: true, inserted: true });
    expect(await (await deliver(envelope)).json()).toEqual({ ok: true, handled: true, inserted: false });
    expect(await orders()).toHaveLength(1);
  });

  test("50 concurrent identical deliveries create exactly one order", async () => {
    const body = JSON.stringify(checkoutCompleted({ id: "evt_burst" }));
    const header = await signatureHeader(body, nowSeconds());
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(body, header).then(async (r) => ({ status: r.status, body: await r.json() }))));
    expect(answers.every((a) => a.status === 200 && a.body.handled === true)).toBe(true);
    expect(answers.filter((a) => a.body.inserted === true)).toHaveLength(1);
    expect(await orders()).toHaveLength(1);
  });

  test("other event types and envelopes without id, type or data.object answer 200 handled false", async () => {
    const cases = [
      { id: "evt_other", type: "payment_intent.succeeded", data: { object: {} } },
      { type: "checkout.session.completed", data: { object: {} } },
      { id: 12, type: "checkout.session.completed", data: { object: {} } },
      { id: "evt_x", data: { object: {} } },
      { id: "evt_y", type: "checkout.session.completed", data: {} },
      { id: "evt_z", type: "checkout.session.completed", data: { object: [] } },
      { id: "evt_w", type: "checkout.session.completed" },
      [1, 2, 3],
      "a string",
    ];
    for (const envelope of cases) {
      const res = await deliver(envelope);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true, handled: false, inserted: false });
    }
    expect(await orders()).toHaveLength(0);
  });
});

describe("POST /api/webhooks/payment: signatures", () => {
  const body = () => JSON.stringify(checkoutCompleted());

  async function expectRejected(res: Response, error = "Invalid signature") {
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error });
    expect(await orders()).toHaveLength(0);
  }

  test("wrong secret, missing header, malformed header", async () => {
    const b = body();
    await expectRejected(await post(b, await signatureHeader(b, nowSeconds(), "whsec_other")));
    await expectRejected(await post(b, null));
    await expectRejected(await post(b, ""));
    await expectRejected(await post(b, "garbage"));
    await expectRejected(await post(b, `t=abc,v1=${await signPayload(TEST_WEBHOOK_SECRET, nowSeconds(), b)}`));
  });

  test("re-serialised JSON (same data, different bytes) fails", async () => {
    const b = body();
    const header = await signatureHeader(b, nowSeconds());
    await expectRejected(await post(JSON.stringify(JSON.parse(b), null, 2), header));
  });

  test("timestamps more than 300 s away either way fail; exactly 300 s passes", async () => {
    const b = body();
    await expectRejected(await post(b, await signatureHeader(b, nowSeconds() - 301)));
    await expectRejected(await post(b, await signatureHeader(b, nowSeconds() + 301)));
    const res = await post(b, await signatureHeader(b, nowSeconds() - 300));
    expect(res.status).toBe(200);
  });

  test("a v0 signature alone fails; any one of several v1 may match", async () => {
    const b = body();
    const t = nowSeconds();
    const good = await signPayload(TEST_WEBHOOK_SECRET, t, b);
    await expectRejected(await post(b, `t=${t},v0=${good}`));
    const bad = await signPayload("whsec_old", t, b);
    const res = await post(b, `t=${t},v1=${bad},v1=${good},v0=${bad}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, handled: true, inserted: true });
  });

  test("headers with spaces, a repeated t, or sent twice are malformed", async () => {
    const b = body();
    const t = nowSeconds();
    const good = await signPayload(TEST_WEBHOOK_SECRET, t, b);
    await expectRejected(await post(b, `t=${t}, v1=${good}`));
    await expectRejected(await post(b, `t=${t},v1=${good},`));
    await expectRejected(await post(b, `t = ${t},v1=${good}`));
    await expectRejected(await post(b, `t=${t},t=${t},v1=${good}`));
    await expectRejected(await post(b, null, ctx, [["payment-signature", `t=${t},v1=${good}`], ["payment-signature", `t=${t},v1=${good}`]]));
  });

  test("non-JSON after a valid signature answers 400 Invalid payload", async () => {
    for (const raw of ["not json", "{\"id\":", "", new Uint8Array([0xff, 0xfe, 0x7b, 0x7d])]) {
      const res = await post(raw, await signatureHeader(raw, nowSeconds()));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "Invalid payload" });
    }
    expect(await orders()).toHaveLength(0);
  });

  // A checkout event is a few KiB: the webhook reads at most 256 KiB, signed or not.
  const padTo = (envelope: unknown, bytes: number, fill: string) => {
    const base = JSON.stringify({ ...(envelope as object), padding: "" });
    return base.slice(0, -2) + fill.repeat(bytes - base.length) + base.slice(-2);
  };

  test("256 KiB bodies: signed with the wrong secret → 400; a byte over the cap → 413, signed or not; nothing stored", async () => {
    const cap = padTo(checkoutCompleted(), WEBHOOK_MAX_BODY_BYTES, "x");
    expect(new TextEncoder().encode(cap).length).toBe(256 * 1024);
    await expectRejected(await post(cap, await signatureHeader(cap, nowSeconds(), "whsec_wrong")));
    const over = cap + " ";
    const res = await post(over, await signatureHeader(over, nowSeconds()));
    expect(res.status).toBe(413);
    const mib = padTo(checkoutCompleted({ id: "evt_mib" }), 1024 * 1024, "z");
    expect((await post(mib, await signatureHeader(mib, nowSeconds()))).status).toBe(413);
    expect(await orders()).toHaveLength(0);
  });

  test("a valid 256 KiB body is processed", async () => {
    const cap = padTo(checkoutCompleted({ id: "evt_big" }), WEBHOOK_MAX_BODY_BYTES, "y");
    const res = await post(cap, await signatureHeader(cap, nowSeconds()));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, handled: true, inserted: true });
  });
});
