// Private links in messages (see docs/email.md, "Private links"): the outbox never stores the host's
// edit link nor the partner's statistics link. A message names the edit link or the order; the
// link is written out from AUTH_SECRET when the message is sent, and the console and the admin API
// show a placeholder in its place. A message queued before links were derived may still carry its
// link: it is sent as it is and removed from the row when the message leaves the queue (outbox.ts).

import { createHmac } from "node:crypto";
import type { Config } from "../config.ts";
import { publicUrl } from "../config.ts";
import { hmacHex } from "../crypto.ts";
import { isLanguage, translate } from "../i18n/index.ts";
import { PRIVATE_LINK_PARAMS, type MessageKind } from "./templates.ts";

// The two derivations live here, below the areas that issue the links (submissions, partners),
// so that the worker can write a link out without the mail folder importing those areas.

/** The page an edit link opens: `/edit-event/<link id>?token=<token>`. */
export const EDIT_LINK_PATH = "/edit-event";

/** The token of an edit link: 32 bytes of HMAC-SHA256 (AUTH_SECRET) over its random id, in base64url. */
export function editLinkToken(secret: string, linkId: string): string {
  return createHmac("sha256", secret).update(`host-edit-link-token:${linkId}`).digest("base64url");
}

/** The address of an edit link, absolute (for an email). */
export function editLinkUrl(config: Pick<Config, "siteUrl" | "basePath">, linkId: string, token: string): string {
  return publicUrl(config, `${EDIT_LINK_PATH}/${linkId}?${new URLSearchParams({ token }).toString()}`);
}

/** The statistics token of an order: 32 lowercase hex, the same every time (the spec's token is not regenerable). */
export function partnerStatsToken(secret: string, orderId: string): string {
  return hmacHex(secret, `partner-stats-token:${orderId}`).slice(0, 32);
}

/** The address of an order's statistics page with its token, absolute. */
export function partnerStatsLink(config: Pick<Config, "siteUrl" | "basePath">, orderId: string, token: string): string {
  return publicUrl(config, `/partner-stats/${orderId}?token=${token}`);
}

/** The console's reports card, which the team's alerts link to (not a private link: it opens only for an admin). */
export const CONSOLE_REPORTS_PATH = "/admin/content#reports-card";

/** `send`: the working link, for the email; `hidden`: a placeholder, for the console and the API. */
export type LinkMode = "send" | "hidden";

type LinkConfig = Pick<Config, "siteUrl" | "basePath" | "authSecret">;

const EDIT_KINDS: readonly MessageKind[] = ["submission_accepted", "edit_link_issued"];
const STATS_KINDS: readonly MessageKind[] = ["order_confirmed", "placement_started", "placement_ended"];

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function editLink(config: LinkConfig, params: Record<string, unknown>): string {
  const id = text(params.editLinkId);
  return id ? editLinkUrl(config, id, editLinkToken(config.authSecret, id)) : text(params.editUrl);
}

function statsLink(config: LinkConfig, params: Record<string, unknown>): string {
  if (text(params.statsUrl)) return text(params.statsUrl);
  const id = text(params.orderId);
  return id ? partnerStatsLink(config, id, partnerStatsToken(config.authSecret, id)) : "";
}

/** True when a message of this kind had a private link (named, carried, or removed after sending). */
function hadLink(params: Record<string, unknown>, key: "editLinkId" | "orderId"): boolean {
  return Boolean(text(params[key]) || PRIVATE_LINK_PARAMS.some((k) => text(params[k])) || params.linkRemoved === true);
}

/** The params a message is rendered from: its private link written out (`send`) or replaced by a placeholder (`hidden`). */
export function withPrivateLinks(config: LinkConfig, kind: MessageKind, language: string, params: Record<string, unknown>, mode: LinkMode): Record<string, unknown> {
  const hidden = translate(isLanguage(language) ? language : "fr", "email.privateLinkHidden");
  if (EDIT_KINDS.includes(kind)) {
    const link = mode === "send" ? editLink(config, params) : hadLink(params, "editLinkId") ? hidden : "";
    return { ...params, editUrl: link };
  }
  if (STATS_KINDS.includes(kind)) return { ...params, statsUrl: mode === "send" ? statsLink(config, params) : hidden };
  // The team's alert names the event; the console link is written from the configuration now, in both modes (it is not private).
  if (kind === "team_alert") return { ...params, consoleUrl: publicUrl(config, CONSOLE_REPORTS_PATH) };
  return params;
}
