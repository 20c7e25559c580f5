// Private links in messages (see docs/email.md, "Private links"): the outbox never stores the host's
// edit link nor the partner's statistics link. A message names the edit link or the order; the
// link is written out from AUTH_SECRET when the message is sent, and the console and the admin API
// show a placeholder in its place. A message queued before links were derived may still carry its
// link: it is sent as it is and removed from the row when the message leaves the queue (outbox.ts).

import type { Config } from "../config.ts";
import { publicUrl } from "../config.ts";
import { isLanguage, translate } from "../i18n/index.ts";
import { editLinkToken, editLinkUrl } from "../submissions/host-links.ts";
import { partnerStatsToken } from "../partners/tokens.ts";
import { PRIVATE_LINK_PARAMS, type MessageKind } from "./templates.ts";

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
  return id ? publicUrl(config, `/partner-stats/${id}?token=${partnerStatsToken(config.authSecret, id)}`) : "";
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
  return params;
}
