// Reading request bodies that may be a form (urlencoded or multipart) or JSON, without throwing.

import { isPlainObject, readJson } from "./http.ts";

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
