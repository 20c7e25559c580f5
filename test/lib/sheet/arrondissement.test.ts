// Arrondissement rules (docs/sheet.md, "Arrondissement"): Area cell steps, Location estimates,
// labels and the centre table.

import { describe, expect, test } from "bun:test";
import {
  ARRONDISSEMENT_CENTRES,
  arrondissementCentre,
  arrondissementLongLabel,
  arrondissementShortLabel,
  compareArrondissements,
  estimateArrondissementFromLocation,
  readAreaCell,
  resolveArrondissement,
} from "../../../src/lib/sheet/arrondissement.ts";
import type { Arrondissement } from "../../../src/lib/sheet/types.ts";

describe("readAreaCell", () => {
  test.each([
    ["11", 11],
    ["11e", 11],
    ["11ème", 11],
    ["1er", 1],
    ["Paris 11", 11],
    ["75011", 11],
    ["Paris 75020", 20],
    ["75116", 16],
    ["75001 / 3", 1],
    ["20e arrondissement", 20],
    ["dix-septième", 17],
    ["Dix Septième", 17],
    ["septième", 7],
    ["premier", 1],
    ["Première", 1],
    ["seventeenth", 17],
    ["the twentieth", 20],
    ["second", 2],
    ["vingtième", 20],
    ["21", null],
    ["0", null],
    ["123", null],
    ["75021", null],
    ["TBC", null],
    ["-", null],
    ["", null],
    ["Greater Paris", null],
  ])("%p → %p", (cell, expected) => {
    expect(readAreaCell(cell)).toBe(expected);
  });
});

describe("estimateArrondissementFromLocation", () => {
  test.each([
    ["near Oberkampf", 11],
    ["Bar Le Fil Rouge, rue Oberkampf", 11],
    ["Canal Saint-Martin quay", 10],
    ["Parc des Buttes-Chaumont", 19],
    ["Gare de l'Est", 10],
    ["Place d'Italie", 13],
    ["Hôtel de Ville", 4],
    ["Pere Lachaise", 20],
    ["Champs-Elysées", 8],
    ["Latin Quarter", 5],
    ["Some bar, 75018 Paris", 18],
    ["Salle X, 11ème arrondissement", 11],
    ["Studio, 3e arr.", 3],
    ["Club, 9eme ardt", 9],
    ["TBA", "unknown"],
    ["Location TBC", "unknown"],
    ["Oberkampf (TBC)", "unknown"],
    ["Obertkampfish", "unknown"],
    ["Templeton Bar", "unknown"],
    ["", "unknown"],
  ])("%p → %p", (location, expected) => {
    expect(estimateArrondissementFromLocation(location)).toBe(expected as Arrondissement);
  });
});

describe("resolveArrondissement", () => {
  test.each([
    ["11", "anywhere", { value: 11, source: "area", unexpected: false }],
    ["", "near Oberkampf", { value: 11, source: "location", unexpected: false }],
    ["-", "Montmartre", { value: 18, source: "location", unexpected: false }],
    ["TBC", "TBA", { value: "unknown", source: "none", unexpected: true }],
    ["Greater Paris", "A field", { value: "unknown", source: "none", unexpected: true }],
    ["Outside Paris", "", { value: "unknown", source: "none", unexpected: true }],
    ["Multiple locations", "Bastille", { value: 12, source: "location", unexpected: true }],
    ["25", "", { value: "unknown", source: "none", unexpected: true }],
    ["", "", { value: "unknown", source: "none", unexpected: false }],
  ])("area %p, location %p", (area, location, expected) => {
    expect(resolveArrondissement(area, location)).toEqual(expected as never);
  });
});

describe("labels and order", () => {
  test.each([
    [1, "1er", "1st arrondissement"],
    [2, "2e", "2nd arrondissement"],
    [20, "20e", "20th arrondissement"],
    ["unknown", "TBC", "Location TBC"],
  ])("%p → %p / %p", (value, short, long) => {
    expect(arrondissementShortLabel(value as Arrondissement)).toBe(short);
    expect(arrondissementLongLabel(value as Arrondissement)).toBe(long);
  });

  test("sort order is 1–20 then unknown", () => {
    const values: Arrondissement[] = ["unknown", 11, 2, 20, 1];
    expect(values.sort(compareArrondissements)).toEqual([1, 2, 11, 20, "unknown"]);
  });
});

describe("centres", () => {
  test("all 20 arrondissements have a centre", () => {
    expect(Object.keys(ARRONDISSEMENT_CENTRES).map(Number)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  test.each([
    [1, { lat: 48.8606, lng: 2.3376, label: "1er - Louvre" }],
    [10, { lat: 48.876, lng: 2.359, label: "10e - Entrepôt" }],
    [16, { lat: 48.8555, lng: 2.269, label: "16e - Passy" }],
    [20, { lat: 48.8632, lng: 2.3969, label: "20e - Ménilmontant" }],
    ["unknown", { lat: 48.84, lng: 2.42, label: "Unknown - Location TBC" }],
    [42, { lat: 48.8566, lng: 2.3522 }],
    ["11", { lat: 48.8566, lng: 2.3522 }],
  ])("%p → %p", (value, centre) => {
    expect(arrondissementCentre(value)).toEqual(centre);
  });
});
