/**
 * Local VIN decoding from its standard structure (ISO 3779 / 49 CFR 565): the manufacturer from
 * the world manufacturer identifier (characters 1-3) and the model year from character 10, whose
 * 30-year cycle is told apart by character 7 (a letter means 2010 or later for North American
 * light vehicles). Also validates the check digit (character 9).
 */
/** 17 letters and digits; I, O and Q are never used (they read like 1 and 0). */
export const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;
export const VIN_PATTERN_MESSAGE = "A VIN is 17 letters and digits (no I, O or Q)";

const YEAR_CODES = "ABCDEFGHJKLMNPRSTVWXY123456789";
const TRANSLITERATION: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

const MANUFACTURERS: Record<string, string> = {
  "1FA": "Ford",
  "1FM": "Ford",
  "1FT": "Ford",
  "1FD": "Ford",
  "3FA": "Ford",
  "2FM": "Ford",
  "1GC": "Chevrolet",
  "1G1": "Chevrolet",
  "3GC": "Chevrolet",
  "2GC": "Chevrolet",
  "1GT": "GMC",
  "3GT": "GMC",
  "1C6": "Ram",
  "3C6": "Ram",
  "1C4": "Jeep",
  "2C4": "Chrysler",
  "5YJ": "Tesla",
  "7SA": "Tesla",
  "1N4": "Nissan",
  "1N6": "Nissan",
  "5N1": "Nissan",
  JTD: "Toyota",
  "4T1": "Toyota",
  "5TD": "Toyota",
  "5TF": "Toyota",
  JTM: "Toyota",
  "1HG": "Honda",
  "2HG": "Honda",
  "5FN": "Honda",
  "5J6": "Honda",
  WDB: "Mercedes-Benz",
  W1V: "Mercedes-Benz",
  WD3: "Mercedes-Benz",
  WBA: "BMW",
  WVW: "Volkswagen",
  "1HT": "International",
  "3HA": "International",
  "1FV": "Freightliner",
  "3AK": "Freightliner",
  "1XK": "Kenworth",
  "1XP": "Peterbilt",
  KMH: "Hyundai",
  "5NP": "Hyundai",
  KNA: "Kia",
  "5XY": "Kia",
  JF1: "Subaru",
  "4S4": "Subaru",
};

export function vinCheckDigit(vin: string): string | null {
  if (!VIN_PATTERN.test(vin)) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const c = vin[i]!;
    const value = /[0-9]/.test(c) ? Number(c) : TRANSLITERATION[c]!;
    sum += value * WEIGHTS[i]!;
  }
  const r = sum % 11;
  return r === 10 ? "X" : String(r);
}

export interface DecodedVin {
  year: number | null;
  make: string | null;
  checkDigitValid: boolean;
}

export function decodeVin(input: string): DecodedVin | null {
  const vin = input.trim().toUpperCase();
  if (!VIN_PATTERN.test(vin)) return null;
  const code = YEAR_CODES.indexOf(vin[9]!);
  let year: number | null = null;
  if (code >= 0) {
    year = 1980 + code;
    if (/[A-Z]/.test(vin[6]!)) year += 30;
  }
  const make = MANUFACTURERS[vin.slice(0, 3)] ?? null;
  return { year, make, checkDigitValid: vinCheckDigit(vin) === vin[8] };
}
