import { describe, expect, it } from "vitest";
import { MESSAGE_BURST, MESSAGES_PER_SECOND, takeMessage } from "./message-rate";

describe("socket messages per second", () => {
  it("allows a burst, then refuses until the budget refills at its rate", () => {
    const socket = {};
    const t0 = 1_000_000;
    for (let i = 0; i < MESSAGE_BURST; i++) expect(takeMessage(socket, t0)).toBe(true);
    expect(takeMessage(socket, t0)).toBe(false);
    // One second later, a second's worth is back, not more.
    const t1 = t0 + 1000;
    for (let i = 0; i < MESSAGES_PER_SECOND; i++) expect(takeMessage(socket, t1)).toBe(true);
    expect(takeMessage(socket, t1)).toBe(false);
  });

  it("keeps one budget per socket", () => {
    const noisy = {};
    const quiet = {};
    for (let i = 0; i <= MESSAGE_BURST; i++) takeMessage(noisy, 0);
    expect(takeMessage(noisy, 0)).toBe(false);
    expect(takeMessage(quiet, 0)).toBe(true);
  });
});
