// Genre rules (docs/sheet.md, "Genres"): the 38 keys, aliases, splitting, longest-alias matching and `other`.

import { describe, expect, test } from "bun:test";
import { GENRE_KEYS, GENRES, genreColour, genreLabel, parseGenres } from "../../../src/lib/sheet/genres.ts";

test("38 genre keys in list order: the 29 club keys, the festival keys, then other", () => {
  expect(GENRE_KEYS).toEqual([
    "amapiano", "afrobeats", "soca", "pop", "bashment", "hip hop", "r&b", "shatta", "dancehall", "reggaeton",
    "baile funk", "house", "disco", "afro house", "electro", "funk", "rap", "trap", "uk drill", "uk garage",
    "bouyon", "zouk", "coupé-décalé", "urban fr", "kompa", "afro", "gqom", "alternative", "dance",
    "jazz", "rock", "classique", "chanson", "musiques du monde", "reggae", "metal", "variété", "other",
  ]);
  expect(GENRES.map((genre) => genre.label).slice(0, 7)).toEqual(["Amapiano", "Afrobeats", "Soca", "Pop", "Bashment", "Hip Hop", "R&B"]);
});

test("every genre has its own chip colour", () => {
  const colours = GENRES.map((genre) => genre.colour);
  expect(new Set(colours).size).toBe(38);
  for (const colour of colours) expect(colour).toMatch(/^#[0-9a-f]{6}$/);
  expect(genreColour("house")).toBe(GENRES[11].colour);
  expect(genreColour("nope")).toBe(GENRES[37].colour);
  expect(GENRES[37].key).toBe("other");
});

test.each([
  ["r&b", "R&B"],
  ["coupé-décalé", "Coupé-Décalé"],
  ["uk drill", "UK Drill"],
  ["urban fr", "Urban FR"],
  ["unknown-key", "unknown-key"],
])("genreLabel(%p) → %p", (key, label) => {
  expect(genreLabel(key)).toBe(label);
});

describe("parseGenres", () => {
  test.each([
    ["R&B / Afro House", ["r&b", "afro house"]],
    ["R & B", ["r&b"]],
    ["r and b, house", ["r&b", "house"]],
    ["R'n'B", ["r&b"]],
    ["RnB", ["r&b"]],
    ["Soul", ["r&b"]],
    ["Hip Hop & R&B", ["hip hop", "r&b"]],
    ["Hip-Hop", ["hip hop"]],
    ["hiphop", ["hip hop"]],
    ["Techno", ["house"]],
    ["Afrohouse", ["afro house"]],
    ["Afro-House", ["afro house"]],
    ["Afrobeat", ["afrobeats"]],
    ["Dancehall", ["dancehall"]],
    ["Dance Hall", ["dancehall"]],
    ["Dance music", ["dance"]],
    ["Baile Funk", ["baile funk"]],
    ["Trap", ["trap"]],
    ["Rap", ["rap"]],
    ["UKG", ["uk garage"]],
    ["Garage", ["uk garage"]],
    ["Drill", ["uk drill"]],
    ["Konpa", ["kompa"]],
    ["Coupe Decale", ["coupé-décalé"]],
    ["COUPÉ-DÉCALÉ", ["coupé-décalé"]],
    ["EDM + Trance; Dubstep | Electronic", ["electro"]],
    ["Mainstream, Commercial", ["pop"]],
    ["Indie, Alt, Alternative Rock", ["alternative"]],
    ["Deep house", ["house"]],
    ["Soulful House", ["house"]],
    ["Afro Tech", ["afro"]],
    ["Polka", ["other"]],
    ["Polka, Jazz", ["other", "jazz"]],
    ["Chorale / Orchestre", ["classique"]],
    ["Chanson française", ["chanson"]],
    ["Salsa, Fado", ["musiques du monde"]],
    ["Punk + Garage Rock", ["rock"]],
    ["Garage", ["uk garage"]],
    ["Roots Reggae, Dub", ["reggae"]],
    ["Dubstep", ["electro"]],
    ["Heavy Metal", ["metal"]],
    ["Variété française", ["variété"]],
    ["Terrain vague", ["other"]],
    ["Kompa, Konpa, Zouk", ["kompa", "zouk"]],
    ["Drum and Bass", ["other"]],
    ["House\nDisco", ["house", "disco"]],
    ["Gqom,,  ,Amapiano", ["gqom", "amapiano"]],
    ["Other", ["other"]],
    ["", []],
    ["   ", []],
  ])("%p → %p", (cell, keys) => {
    expect(parseGenres(cell)).toEqual(keys);
  });
});
