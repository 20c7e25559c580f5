// A signed-in visitor's preferred genres (domain.md §14, §17): the top of their genre scores.

import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { genrePreferences } from "../db/schema/index.ts";
import { GENRE_KEYS } from "../sheet/genres.ts";

/** The visitor's top genres by score (then most recent), at most `limit`, known keys only. */
export async function listTopGenres(db: Db, email: string, limit = 3): Promise<string[]> {
  const rows = await db
    .select({ genre: genrePreferences.genre })
    .from(genrePreferences)
    .where(and(eq(genrePreferences.email, email.trim().toLowerCase()), inArray(genrePreferences.genre, [...GENRE_KEYS])))
    .orderBy(desc(genrePreferences.score), desc(genrePreferences.lastSeenAt))
    .limit(limit);
  return rows.map((r) => r.genre);
}
