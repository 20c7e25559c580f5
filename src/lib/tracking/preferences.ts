// A signed-in visitor's preferred genres (see docs/tracking.md, "Genre preferences"): the top of
// the genre scores their own browser session recorded (never those of other sessions that signed
// in with the same email: signing in proves nothing about the address).

import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { sessionGenrePreferences } from "../db/schema/index.ts";
import { GENRE_KEYS } from "../sheet/genres.ts";

/** The top genres recorded by one browser session (the user token's sid), at most `limit`. */
export async function listSessionTopGenres(db: Db, sessionId: string, limit = 3): Promise<string[]> {
  const rows = await db
    .select({ genre: sessionGenrePreferences.genre })
    .from(sessionGenrePreferences)
    .where(and(eq(sessionGenrePreferences.sessionId, sessionId), inArray(sessionGenrePreferences.genre, [...GENRE_KEYS])))
    .orderBy(desc(sessionGenrePreferences.score), desc(sessionGenrePreferences.lastSeenAt))
    .limit(limit);
  return rows.map((r) => r.genre);
}
