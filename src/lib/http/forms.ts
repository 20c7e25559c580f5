// Reading request bodies that may be a form (urlencoded or multipart) or JSON, without throwing.

import { isPlainObject, readJson } from "./responses.ts";

function contentType(request: Request): string {
  return (request.headers.get("content-type") ?? "").toLowerCase();
}

/** True when the body is declared as an HTML form. */
export function isFormRequest(request: Request): boolean {
  const type = contentType(request);
  return type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data");
}

/** The text fields of a form body; `{}` when the body is absent or malformed. Files are ignored. */
export async function readForm(request: Request): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  try {
    if (contentType(request).startsWith("multipart/form-data")) {
      const data = await request.formData();
      for (const [name, value] of data.entries()) if (typeof value === "string" && !(name in fields)) fields[name] = value;
    } else {
      for (const [name, value] of new URLSearchParams(await request.text())) if (!(name in fields)) fields[name] = value;
    }
  } catch {
    return {};
  }
  return fields;
}

/** A form body as fields, or a JSON body as an object; undefined when neither parses to an object. */
export async function readJsonOrForm(request: Request): Promise<Record<string, unknown> | undefined> {
  if (isFormRequest(request)) return readForm(request);
  const body = await readJson(request);
  return isPlainObject(body) ? body : undefined;
}

/**
 * The body a public form posts, as its JSON twin expects it: the visible "website" field of the
 * form is the honeypot (a JSON body names it `honeypot` itself and is left as it is).
 */
export function honeypotBody(fields: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!fields) return undefined;
  const { website, ...rest } = fields;
  return "honeypot" in rest ? rest : { ...rest, honeypot: website };
}

// ---------------------------------------------------------------------------------------------
// One query value, read and written as URLSearchParams does, without building one (a search's
// `q` is read from every results URL and written into each of its links: URLSearchParams cost a
// search miss several microseconds each way).

const PLUS = /\+/g;
const SPACE = /%20/g;
// encodeURIComponent leaves these as they are; the form encoding escapes them.
const FORM_ESCAPED = /[!'()~]/g;

/** A value as written after `name=` in a query (application/x-www-form-urlencoded), exactly as URLSearchParams writes it. */
export function formEncoded(value: string): string {
  // Lone surrogates become U+FFFD, as URLSearchParams turns them (encodeURIComponent would throw).
  const text = value.isWellFormed() ? value : value.toWellFormed();
  return encodeURIComponent(text).replace(SPACE, "+").replace(FORM_ESCAPED, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The value of a raw query value (what follows `name=`), exactly as URLSearchParams reads it. */
export function formDecoded(raw: string): string {
  const spaced = (raw.includes("+") ? raw.replace(PLUS, " ") : raw).toWellFormed();
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A stray "%" or bytes that are not UTF-8: URLSearchParams keeps the one and replaces the other.
    return new URLSearchParams(`v=${raw.replace(/[&#]/g, encodeURIComponent)}`).get("v") ?? "";
  }
}
