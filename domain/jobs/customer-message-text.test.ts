import { describe, expect, it } from "vitest";
import { customerMessageText, type CustomerMessageFacts } from "./customer-message-text";

// The words a customer reads (docs/decisions/0085): theirs, on the sender's clock with its zone named.
const at = (iso: string) => Date.parse(iso);
const facts = (over: Partial<CustomerMessageFacts>): CustomerMessageFacts => ({
  kind: "en_route",
  title: "Deliver the boiler",
  status: "en_route",
  date: "2026-11-30",
  windowStart: "14:00",
  windowEnd: "16:00",
  eta: at("2026-11-30T20:32:00Z"),
  completedAt: null,
  link: "https://fleet.example/track/abc",
  proofPhoto: false,
  clock: { timeZone: "America/Chicago", hourCycle: "h12" },
  now: at("2026-11-30T20:24:00Z"),
  ...over,
});

describe("a customer message's words", () => {
  it("on its way: the expected time in the sender's zone, named, and the link to follow", () => {
    expect(customerMessageText(facts({}))).toEqual({
      subject: "Your visit is on its way",
      lines: [
        '"Deliver the boiler" is on its way, expected at about 2:32 PM CST.',
        "",
        "Follow the vehicle: https://fleet.example/track/abc",
      ],
      sms: '"Deliver the boiler" is on its way, expected at about 2:32 PM CST. Follow the vehicle: https://fleet.example/track/abc',
    });
  });

  it("arriving: minutes from now, never 'in 0 minutes'", () => {
    expect(customerMessageText(facts({ kind: "arriving" })).lines[0]).toBe(
      '"Deliver the boiler" is arriving in about 8 minutes (about 2:32 PM CST).',
    );
    expect(customerMessageText(facts({ kind: "arriving", now: at("2026-11-30T20:32:10Z") })).lines[0]).toMatch(
      /arriving in about 1 minute \(/,
    );
  });

  it("done: the time, and the photo's link only when the workspace shows it", () => {
    const done = facts({ kind: "completed", status: "completed", completedAt: at("2026-11-30T20:40:00Z") });
    expect(customerMessageText(done).lines).toEqual(['"Deliver the boiler" was done at 2:40 PM CST.']);
    expect(customerMessageText({ ...done, proofPhoto: true }).lines.at(-1)).toBe(
      "The photo taken at your visit, for the next 30 minutes: https://fleet.example/track/abc",
    );
  });

  it("could not make it: called off (no link to a visit that is over), or the new day and window", () => {
    const off = customerMessageText(facts({ kind: "failed", status: "cancelled" }));
    expect(off.subject).toBe("Your visit will not happen as planned");
    expect(off.lines).toEqual(['We could not make "Deliver the boiler" on 2026-11-30: it was called off.']);
    const moved = customerMessageText(facts({ kind: "failed", status: "scheduled", date: "2026-12-01" }));
    expect(moved.lines[0]).toBe(
      'We could not make "Deliver the boiler" as planned: it is now planned for 2026-12-01, 2:00 PM–4:00 PM CST.',
    );
  });
});
