import { describe, expect, it } from "vitest";
import { decodeVin, vinCheckDigit } from "./vin";

describe("VIN decoding", () => {
  it("reads the manufacturer and the model year", () => {
    expect(decodeVin("1FTFW1E50PFA12345")).toMatchObject({ make: "Ford", year: 2023 });
    expect(decodeVin("1HGCM82633A004352")).toMatchObject({ make: "Honda", year: 2003, checkDigitValid: true });
  });

  it("checks the check digit", () => {
    expect(vinCheckDigit("1HGCM82633A004352")).toBe("3");
    expect(decodeVin("1HGCM82643A004352")!.checkDigitValid).toBe(false);
  });

  it("refuses what is not a VIN", () => {
    expect(decodeVin("too short")).toBeNull();
    expect(decodeVin("1HGCM82633A00435I")).toBeNull();
  });
});
