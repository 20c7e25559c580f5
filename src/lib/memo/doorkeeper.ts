// Which keys were asked before: the doorkeeper of the caches that keep a value only from its
// second request on (the render cache's searches, the homepage's URL memo). On festival night most
// distinct searches are asked once; keeping each one's render and reading would fill the caches
// with values nobody asks for again and make every request pay for the garbage collector moving
// them (docs/public-pages.md, "Render cache").
//
// A fixed table of 32-bit fingerprints, one slot per key by a second hash: nothing is allocated per
// key, and the table never grows. Two keys sharing a slot push each other out (the older is
// forgotten: it is kept one request later than it could have been), and two keys sharing a slot
// and a fingerprint (about one chance in four billion) count as one (a one-off is kept). Both only
// move the moment a value is kept, never what is served.

/** Slots of a doorkeeper: 65,536 (256 KiB), many times the distinct keys of a busy minute. */
const DEFAULT_SLOTS = 1 << 16;

const SLOT_SEED = 0x5bd1e995;
const FINGERPRINT_SEED = 0x9e3779b9;

export interface Doorkeeper {
  /** True when `key` was asked before (and is still remembered); remembers it either way. */
  askedBefore(key: string): boolean;
}

/** A doorkeeper of `slots` slots (a power of two). */
export function createDoorkeeper(slots = DEFAULT_SLOTS): Doorkeeper {
  if (!Number.isInteger(Math.log2(slots))) throw new Error(`doorkeeper slots must be a power of two, not ${slots}`);
  const table = new Uint32Array(slots);
  const mask = slots - 1;
  return {
    askedBefore(key) {
      const slot = Bun.hash.murmur32v3(key, SLOT_SEED) & mask;
      // Never 0, which marks an empty slot.
      const fingerprint = (Bun.hash.murmur32v3(key, FINGERPRINT_SEED) | 1) >>> 0;
      if (table[slot] === fingerprint) return true;
      table[slot] = fingerprint;
      return false;
    },
  };
}
