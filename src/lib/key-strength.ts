// How much guessing a secret resists, estimated from its text (see docs/auth-and-admin.md, "Admin
// key strength"). Production refuses an ADMIN_KEY under MIN_ADMIN_KEY_BITS.
//
// The estimate is length × log2(alphabet), counting only the characters that are not a pattern:
// - the alphabet is the smallest set of the usual kinds the key draws from: hexadecimal digits
//   (16) when it is only those, else lower-case letters (26), upper-case (26), digits (10) and ASCII
//   symbols (33) as each appears, plus 128 for anything else;
// - a character continuing a run of the same step (aaa, abc, 789, 321) adds nothing;
// - a character ending three characters already seen earlier in the key (a repeated chunk, as
//   in password1234password1234) adds nothing.
// Random keys lose almost nothing to these rules (`openssl rand -hex 32` ≈ 250 bits, `openssl
// rand -base64 24` ≈ 190); a repeated, counted or spelled-out key loses most of its length.

/** The fewest bits an ADMIN_KEY must have in production: past any guessing, even unlimited. */
export const MIN_ADMIN_KEY_BITS = 128;

const SYMBOLS = /[!-/:-@[-`{-~]/;

/** The size of the alphabet `key` draws from (see the module comment). */
export function alphabetSize(key: string): number {
  if (/^[0-9a-f]+$/.test(key) || /^[0-9A-F]+$/.test(key)) return 16;
  let size = 0;
  if (/[a-z]/.test(key)) size += 26;
  if (/[A-Z]/.test(key)) size += 26;
  if (/[0-9]/.test(key)) size += 10;
  if (SYMBOLS.test(key)) size += 33;
  if (/[^\x21-\x7e]/.test(key)) size += 128;
  return size;
}

/** How many characters of `key` are not part of a pattern (a run or a repeated chunk). */
export function freshCharacters(key: string): number {
  const chars = Array.from(key);
  const seen = new Set<string>();
  let fresh = 0;
  for (let i = 0; i < chars.length; i++) {
    if (i < 2) {
      fresh++;
      continue;
    }
    const step = chars[i]!.codePointAt(0)! - chars[i - 1]!.codePointAt(0)!;
    const before = chars[i - 1]!.codePointAt(0)! - chars[i - 2]!.codePointAt(0)!;
    const chunk = chars[i - 2]! + chars[i - 1]! + chars[i]!;
    const run = step === before && Math.abs(step) <= 1;
    if (!run && !seen.has(chunk)) fresh++;
    seen.add(chunk);
  }
  return fresh;
}

/** The estimated bits of `key`, rounded down. */
export function estimatedBits(key: string): number {
  const size = alphabetSize(key);
  return size <= 1 ? 0 : Math.floor(freshCharacters(key) * Math.log2(size));
}

/** Why `key` is too weak for an admin key in production, or undefined when it is strong enough. */
export function adminKeyWeakness(name: string, key: string): string | undefined {
  const bits = estimatedBits(key.trim());
  if (bits >= MIN_ADMIN_KEY_BITS) return undefined;
  return `${name} is too easy to guess: about ${bits} bits of entropy, production needs at least ${MIN_ADMIN_KEY_BITS} (a repeated, counted or short key loses most of its length); generate one with \`openssl rand -hex 32\``;
}
