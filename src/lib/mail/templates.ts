// One template per message to a host or a partner (see docs/email.md): each renders a subject, a
// plain-text part and a simple HTML part in the recipient's language from the message catalogues.
// Every value is escaped in the HTML part; links are written in full in both parts.

import { Html } from "@kitajs/html";
import { formatDay, isLanguage, translate, type Language, type MessageKey } from "../i18n/index.ts";
import { SITE_NAME } from "../links.ts";
import { parisFormat } from "../paris-time.ts";

export const MESSAGE_KINDS = [
  "submission_received",
  "submission_accepted",
  "submission_declined",
  "edit_link_issued",
  "changes_accepted",
  "changes_refused",
  "order_confirmed",
  "placement_started",
  "placement_ended",
  "cancellation_confirmed",
  "team_alert",
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export function isMessageKind(value: unknown): value is MessageKind {
  return typeof value === "string" && (MESSAGE_KINDS as readonly string[]).includes(value);
}

/**
 * What each message needs, stored with it in the outbox. Private links are not stored: a message
 * names the edit link (`editLinkId`) or the order (`orderId`) and the worker writes the link out at
 * send time (secret-links.ts). `editUrl` and `statsUrl` are filled in then, for rendering only (a
 * message queued before links were derived may still carry one until it is sent).
 */
export interface MessageParams {
  submission_received: { eventName: string; date: string };
  /** A message queued before the edit link existed has no `editLinkId`: the paragraph is left out. */
  submission_accepted: { eventName: string; publicUrl: string; editLinkId?: string; editUrl?: string };
  submission_declined: { eventName: string; reason: string; note?: string | null };
  edit_link_issued: { eventName: string; editLinkId: string; editUrl?: string };
  changes_accepted: { eventName: string; publicUrl: string; changes: ChangeLine[] };
  changes_refused: { eventName: string; reason: string; changes: ChangeLine[] };
  order_confirmed: { orderId: string; eventName: string; tier: string; startAt: string; endAt: string; statsUrl?: string };
  placement_started: { orderId: string; eventName: string; tier: string; endAt: string; statsUrl?: string };
  placement_ended: { orderId: string; eventName: string; tier: string; endAt: string; statsUrl?: string };
  /** The host cancelled their event through the edit link; `note` is the public reason they gave. */
  cancellation_confirmed: { eventName: string; publicUrl: string; note: string };
  /**
   * To TEAM_EMAIL: a visitor reported the event cancelled (`report`) or its host cancelled it
   * (`host`). Names the event only: never the reporter's text, address or IP. `consoleUrl` (the
   * console's reports card) is written out from the configuration when the message is rendered.
   */
  team_alert: { source: "report" | "host"; eventKey: string; eventName: string; note?: string; consoleUrl?: string };
}

/** The params keys that may hold a private link (filled in at send time, or left by a message queued before links were derived). */
export const PRIVATE_LINK_PARAMS = ["editUrl", "statsUrl"] as const;

/** One field of a host's proposal: the sheet field and its value before → after. */
export interface ChangeLine {
  field: string;
  before: string;
  after: string;
}

/** A message ready to send. */
export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
}

/** A paragraph, optionally followed by a link on its own line. */
interface Block {
  text: string;
  link?: string;
}

const PARIS_FORMATS: Record<Language, Intl.DateTimeFormat> = {
  fr: parisFormat("fr-FR", { day: "numeric", month: "long", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
  en: parisFormat("en-GB", { day: "numeric", month: "long", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
};

/** A moment on the Paris clock in words ("21 juin à 18:00", "21 June at 18:00"). */
export function parisMoment(iso: string, language: Language): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : PARIS_FORMATS[language].format(at);
}

function compose(language: Language, subject: string, blocks: Block[], footerText?: string): RenderedMessage {
  const tr = (key: MessageKey, params?: Record<string, string>) => translate(language, key, params);
  const all: Block[] = [{ text: tr("email.greeting") }, ...blocks, { text: tr("email.signoff", { site: SITE_NAME }) }];
  const footer = footerText ?? tr("email.footer", { site: SITE_NAME });
  const text = [...all.map((b) => (b.link ? `${b.text}\n${b.link}` : b.text)), "--", footer].join("\n\n") + "\n";
  const paragraphs = all
    .map((b) => {
      // A block of several lines (the list of changes) keeps its lines.
      const body = Html.escapeHtml(b.text).replace(/\n/g, "<br>\n");
      if (!b.link) return `<p>${body}</p>`;
      const href = Html.escapeHtml(b.link);
      return `<p>${body}<br><a href="${href}">${href}</a></p>`;
    })
    .join("\n");
  const html = `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><title>${Html.escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;line-height:1.5;color:#1d1d1f;max-width:36rem">
${paragraphs}
<hr>
<p style="color:#6e6e73;font-size:0.875em">${Html.escapeHtml(footer)}</p>
</body>
</html>
`;
  return { subject, text, html };
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function tierWord(language: Language, tier: unknown): string {
  return translate(language, tier === "spotlight" ? "email.tier.spotlight" : "email.tier.promoted");
}

/** The fields a host may change, in the edit form's order (the stored change set has no order of its own). */
const CHANGE_FIELDS = ["startTime", "endTime", "location", "area", "notes", "primaryUrl"];

/** "Heure de début : 20:00 → 21:30", one line per changed field in the form's order (an empty value is "—"). */
function changeText(language: Language, changes: unknown): string {
  if (!Array.isArray(changes)) return "";
  return changes
    .filter((c): c is ChangeLine => typeof c === "object" && c !== null && CHANGE_FIELDS.includes(str((c as ChangeLine).field)))
    .sort((a, b) => CHANGE_FIELDS.indexOf(a.field) - CHANGE_FIELDS.indexOf(b.field))
    .map((c) => translate(language, "email.changeLine", { field: translate(language, `edit.field.${c.field}` as MessageKey), before: str(c.before) || "—", after: str(c.after) || "—" }))
    .join("\n");
}

function reasonWords(language: Language, reason: unknown): string {
  const known = ["not_enough_information", "duplicate_submission", "event_not_relevant", "unable_to_verify", "spam_signal", "other"];
  return translate(language, `email.reason.${known.includes(str(reason)) ? str(reason) : "other"}` as MessageKey);
}

/**
 * The words of the cancellation messages (the host's confirmation and the team's alert), in both
 * languages. Kept here beside their templates rather than in the site's catalogues; `{name}` is
 * replaced by the value of that name.
 */
const CANCELLATION_WORDS = {
  fr: {
    confirmedSubject: "« {event} » est annulé",
    confirmedBody: "Votre annulation de « {event} » est enregistrée : l'événement apparaît maintenant comme annulé sur {site}, pour tous les visiteurs.",
    confirmedNote: "Motif affiché aux visiteurs : {note}",
    confirmedMistake: "S'il s'agit d'une erreur, écrivez à l'équipe : l'événement peut être rétabli.",
    reportSubject: "Signalé annulé : « {event} »",
    reportBody: "Un visiteur signale que « {event} » ({key}) n'a pas lieu. Rien n'a changé sur le site : vérifiez, puis utilisez « Mark cancelled and publish » sur la carte des signalements.",
    hostSubject: "Annulé par son organisateur : « {event} »",
    hostBody: "L'organisateur de « {event} » ({key}) l'a annulé avec son lien personnel. L'événement apparaît déjà comme annulé sur le site.",
    hostNote: "Motif public : {note}",
    consoleLink: "Les signalements dans la console :",
    teamFooter: "Vous recevez ce message parce que cette adresse est l'adresse de l'équipe (TEAM_EMAIL) de {site}.",
  },
  en: {
    confirmedSubject: "“{event}” is cancelled",
    confirmedBody: "Your cancellation of “{event}” is recorded: the event is now shown as cancelled on {site}, to every visitor.",
    confirmedNote: "Reason shown to visitors: {note}",
    confirmedMistake: "If this was a mistake, write to the team: the event can be put back.",
    reportSubject: "Reported cancelled: “{event}”",
    reportBody: "A visitor reports that “{event}” ({key}) is not happening. Nothing changed on the site: check, then use “Mark cancelled and publish” on the reports card.",
    hostSubject: "Cancelled by its host: “{event}”",
    hostBody: "The host of “{event}” ({key}) cancelled it with their edit link. The event is already shown as cancelled on the site.",
    hostNote: "Public reason: {note}",
    consoleLink: "The reports in the console:",
    teamFooter: "You are receiving this because this is the team address (TEAM_EMAIL) of {site}.",
  },
} as const;

function cancellationWords(language: Language, key: keyof (typeof CANCELLATION_WORDS)["en"], values: Record<string, string> = {}): string {
  return CANCELLATION_WORDS[language][key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? (name === "site" ? SITE_NAME : whole));
}

/** Renders one message of `kind` in `language` from its stored params. */
export function renderMessage(kind: MessageKind, rawLanguage: string, params: Record<string, unknown>): RenderedMessage {
  const language: Language = isLanguage(rawLanguage) ? rawLanguage : "fr";
  const tr = (key: MessageKey, values?: Record<string, string>) => translate(language, key, values);
  const event = str(params.eventName);
  switch (kind) {
    case "submission_received": {
      const date = /^\d{4}-\d{2}-\d{2}$/.test(str(params.date)) ? formatDay(str(params.date), language) : str(params.date);
      return compose(language, tr("email.received.subject", { event }), [{ text: tr("email.received.body", { event, date }) }]);
    }
    case "submission_accepted": {
      const blocks: Block[] = [{ text: tr("email.accepted.body", { event }) }, { text: tr("email.accepted.link"), link: str(params.publicUrl) }];
      if (str(params.editUrl)) blocks.push({ text: tr("email.accepted.editLink"), link: str(params.editUrl) });
      return compose(language, tr("email.accepted.subject", { event }), blocks);
    }
    case "submission_declined": {
      const blocks: Block[] = [{ text: tr("email.declined.body", { event }) }, { text: tr("email.declined.reason", { reason: reasonWords(language, params.reason) }) }];
      if (str(params.note)) blocks.push({ text: tr("email.declined.note", { note: str(params.note) }) });
      blocks.push({ text: tr("email.declined.again") });
      return compose(language, tr("email.declined.subject", { event }), blocks);
    }
    case "edit_link_issued":
      return compose(language, tr("email.editLink.subject", { event }), [{ text: tr("email.editLink.body", { event }) }, { text: tr("email.accepted.editLink"), link: str(params.editUrl) }]);
    case "changes_accepted":
      return compose(language, tr("email.changesAccepted.subject", { event }), [
        { text: tr("email.changesAccepted.body", { event }) },
        { text: changeText(language, params.changes) },
        { text: tr("email.accepted.link"), link: str(params.publicUrl) },
      ]);
    case "changes_refused":
      return compose(language, tr("email.changesRefused.subject", { event }), [
        { text: tr("email.changesRefused.body", { event }) },
        { text: changeText(language, params.changes) },
        { text: tr("email.changesRefused.reason", { reason: str(params.reason) }) },
        { text: tr("email.changesRefused.again") },
      ]);
    case "order_confirmed":
      return compose(language, tr("email.order.subject", { event }), [
        { text: tr("email.order.body", { event, tier: tierWord(language, params.tier), start: parisMoment(str(params.startAt), language), end: parisMoment(str(params.endAt), language) }) },
        { text: tr("email.order.stats"), link: str(params.statsUrl) },
      ]);
    case "placement_started":
      return compose(language, tr("email.started.subject", { event }), [
        { text: tr("email.started.body", { event, tier: tierWord(language, params.tier), end: parisMoment(str(params.endAt), language) }) },
        { text: tr("email.order.stats"), link: str(params.statsUrl) },
      ]);
    case "placement_ended":
      return compose(language, tr("email.ended.subject", { event }), [
        { text: tr("email.ended.body", { event, tier: tierWord(language, params.tier), end: parisMoment(str(params.endAt), language) }) },
        { text: tr("email.ended.stats"), link: str(params.statsUrl) },
      ]);
    case "cancellation_confirmed": {
      const w = (key: keyof (typeof CANCELLATION_WORDS)["en"], values: Record<string, string> = {}) => cancellationWords(language, key, { event, ...values });
      const blocks: Block[] = [{ text: w("confirmedBody") }];
      if (str(params.note)) blocks.push({ text: w("confirmedNote", { note: str(params.note) }) });
      blocks.push({ text: tr("email.accepted.link"), link: str(params.publicUrl) }, { text: w("confirmedMistake") });
      return compose(language, w("confirmedSubject"), blocks);
    }
    case "team_alert": {
      const w = (key: keyof (typeof CANCELLATION_WORDS)["en"], values: Record<string, string> = {}) => cancellationWords(language, key, { event, key: str(params.eventKey), ...values });
      const host = params.source === "host";
      const blocks: Block[] = [{ text: w(host ? "hostBody" : "reportBody") }];
      if (host && str(params.note)) blocks.push({ text: w("hostNote", { note: str(params.note) }) });
      blocks.push({ text: w("consoleLink"), link: str(params.consoleUrl) });
      return compose(language, w(host ? "hostSubject" : "reportSubject"), blocks, w("teamFooter"));
    }
  }
}
