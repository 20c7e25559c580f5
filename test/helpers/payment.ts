// A second, independent signer for the payment webhook (Web Crypto, not node:crypto), so the
// service's verifier is checked against signatures it did not compute itself.

export const TEST_WEBHOOK_SECRET = "whsec_test_0123456789abcdef";

/** Hex HMAC-SHA256 of `<t>.<body>` with Web Crypto. */
export async function signPayload(secret: string, timestamp: number, body: string | Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const message = new Uint8Array(String(timestamp).length + 1 + bytes.length);
  message.set(new TextEncoder().encode(`${timestamp}.`), 0);
  message.set(bytes, String(timestamp).length + 1);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  return Array.from(signature, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The `payment-signature` header for a body signed at `timestamp`. */
export async function signatureHeader(body: string | Uint8Array, timestamp: number, secret = TEST_WEBHOOK_SECRET): Promise<string> {
  return `t=${timestamp},v1=${await signPayload(secret, timestamp, body)}`;
}

let counter = 0;

/** A checkout.session.completed envelope as the provider sends it. */
export function checkoutCompleted(overrides: { id?: string; session?: Record<string, unknown> } = {}) {
  counter++;
  return {
    id: overrides.id ?? `evt_test_${counter}_${Math.random().toString(36).slice(2, 8)}`,
    object: "event",
    type: "checkout.session.completed",
    data: {
      object: {
        id: `cs_test_${counter}`,
        object: "checkout.session",
        amount_total: 8000,
        currency: "eur",
        customer_details: { email: "host@example.com", name: "Canal Collective" },
        payment_link: "plink_spotlight_standard",
        metadata: { package_key: "spotlight-standard" },
        custom_fields: [
          { key: "event_name", type: "text", text: { value: "Canal Sunset Session" } },
          { key: "Event_URL", type: "text", text: { value: "https://example.com/canal" } },
        ],
        ...overrides.session,
      },
    },
  };
}
