// Attribute text for @kitajs/html: it escapes only `"` in attribute values, so event text that ends
// up in attributes (meta tags, link targets) gets `&`, `<` and `>` escaped here as well.

const SPECIAL = /[&<>]/g;
const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/** A value safe to place in a double-quoted attribute (kitajs adds the `"` escape). */
export function attr(value: string): string {
  return value.replace(SPECIAL, (c) => ENTITIES[c]);
}
