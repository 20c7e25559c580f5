// Data the benchmarks share: a realistic large event sheet in the canonical layout.

const GENRES = ["House", "Afrobeats / Amapiano", "R&B, Hip Hop", "Techno", "Dancehall", "Zouk / Kompa", "Disco, Funk"];

/** A realistic sheet of `rows` events in the canonical layout (2,000 by default). */
export function bigSheet(rows = 2000): string {
  const lines = ["Title,Curated,Date,Date To,Start Time,End Time,Host Country,Location,Area,Price,Categories,Primary URL,Age Guidance,Setting,Audience Country,Event Category,Notes,Tags,Series Key,Event Key"];
  for (let i = 0; i < rows; i++) {
    const day = 19 + (i % 4);
    lines.push(
      [`Event ${i} at venue ${i % 300}`, i % 9 === 0 ? "Yes" : "", `2026-06-${day}`, "", `${12 + (i % 12)}:00`, `${(i % 6) + 1}:00`, i % 3 ? "FR" : "UK", `Venue ${i % 300}`, String((i % 20) + 1), i % 4 ? `€${i % 40}` : "Free", `"${GENRES[i % GENRES.length]}"`, `https://t${i}.example/e`, i % 2 ? "18+" : "All ages", i % 2 ? "Indoor" : "Outdoor", "", "party", `"Notes for ${i}, with a comma"`, "", "", ""].join(","),
    );
  }
  return lines.join("\n") + "\n";
}

/** The admin key of the admin-guard benchmark server. */
export const BENCH_ADMIN_KEY = "bench-admin-key-0123456789";
