// Text Postgres can store: no NUL character (text and jsonb refuse it) and no lone UTF-16
// surrogate (jsonb refuses the escape, and it is not valid Unicode anyway).

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

const ANY_CONTROL_CHARACTER = /[\u0000-\u001F\u007F]/;

/**
 * True when `value` holds a C0 control character (NUL, tab and newlines included) or DEL: fields
 * that are one line of a visitor's text (a name, a tracking source) refuse them outright.
 */
export function hasControlCharacter(value: string): boolean {
  return ANY_CONTROL_CHARACTER.test(value);
}

/** True when `value` can be stored as is. */
export function isStorableText(value: string): boolean {
  return !value.includes("\u0000") && !LONE_SURROGATE.test(value);
}

/** `value` with control characters (other than tab, CR, LF) removed and lone surrogates replaced by U+FFFD. */
export function toStorableText(value: string): string {
  return value.replace(CONTROL_CHARACTERS, "").replace(LONE_SURROGATES, "\uFFFD");
}
