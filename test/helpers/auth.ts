// Auth helpers for tests: admin login through the API, cookie parsing, and forged tokens.

import { SignJWT } from "jose";
import { TEST_ADMIN_KEY, TEST_AUTH_SECRET, type TestContext, postJson } from "./app.ts";

let loginCount = 0;

/**
 * Logs in with the test key through POST /api/admin/login and returns the token and jti. Each call
 * comes from its own address (198.18.x.y) unless told otherwise, so the login limit stays out of the way.
 */
export async function loginAsAdmin(ctx: TestContext, headers: Record<string, string> = {}): Promise<{ token: string; jti: string; expiresAt: string; response: Response }> {
  loginCount++;
  const response = await postJson(ctx, "/api/admin/login", { key: TEST_ADMIN_KEY }, { "x-forwarded-for": `198.18.${(loginCount >> 8) & 255}.${loginCount & 255}`, ...headers });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  const body = (await response.clone().json()) as { token: string; jti: string; expiresAt: string };
  return { ...body, response };
}

/** One parsed Set-Cookie header: name, value and attributes (lower-cased names). */
export interface ParsedCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

/** The Set-Cookie headers of a response, parsed. */
export function setCookies(response: Response): ParsedCookie[] {
  return response.headers.getSetCookie().map((line) => {
    const [pair, ...attrs] = line.split(";").map((p) => p.trim());
    const eq = pair.indexOf("=");
    const attributes: Record<string, string | true> = {};
    for (const attr of attrs) {
      const i = attr.indexOf("=");
      if (i === -1) attributes[attr.toLowerCase()] = true;
      else attributes[attr.slice(0, i).toLowerCase()] = attr.slice(i + 1);
    }
    return { name: pair.slice(0, eq), value: decodeURIComponent(pair.slice(eq + 1)), attributes };
  });
}

/** The Set-Cookie of one cookie name, or undefined. */
export function setCookie(response: Response, name: string): ParsedCookie | undefined {
  return setCookies(response).find((c) => c.name === name);
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** Signs arbitrary claims with HS256 (or another HMAC alg) and the test secret by default. */
export async function forgeToken(claims: Record<string, unknown>, options: { alg?: "HS256" | "HS384" | "HS512"; secret?: string } = {}): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? "HS256", typ: "JWT" }).sign(new TextEncoder().encode(options.secret ?? TEST_AUTH_SECRET));
}

/** An unsigned token (`alg: none`). */
export function unsignedToken(claims: Record<string, unknown>): string {
  return `${base64url({ alg: "none", typ: "JWT" })}.${base64url(claims)}.`;
}

/** Changes one claim of a signed token without re-signing it. */
export function tamper(token: string, changes: Record<string, unknown>): string {
  const [header, payload, signature] = token.split(".");
  const claims = { ...JSON.parse(Buffer.from(payload, "base64url").toString()), ...changes };
  return `${header}.${base64url(claims)}.${signature}`;
}

/** Decodes a token's claims without verifying. */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString());
}

export const ADMIN_KEY_HEADER = { "x-admin-key": TEST_ADMIN_KEY };
