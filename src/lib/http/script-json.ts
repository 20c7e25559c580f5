// JSON inside an HTML <script> element (application/json data blocks, JSON-LD): the one escaper.

/**
 * JSON for a `<script type="application/json">` or JSON-LD block: `<`, `>`, `&` and the line
 * separators U+2028/U+2029 escaped, so no text can close the element, open a comment or break an
 * older parser; JSON.parse gives the same value back.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
