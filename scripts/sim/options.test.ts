import { describe, expect, it } from "vitest";
import { parseOptions, UsageError } from "./options";

describe("simulate command line", () => {
  it("reads a workspace, credentials and bounds, with defaults", () => {
    expect(parseOptions(["--workspace", "w1", "--email", "a@b.co", "--password", "pw", "--duration", "30"])).toEqual({
      url: "http://localhost:8787",
      workspace: "w1",
      email: "a@b.co",
      password: "pw",
      interval: 4,
      duration: 30,
      seed: 0,
    });
    expect(
      parseOptions(["--workspace", "w1", "--reports", "100", "--url", "http://127.0.0.1:9000"], { FLEET_TOKEN: "tok" }),
    ).toMatchObject({
      token: "tok",
      reports: 100,
      url: "http://127.0.0.1:9000",
    });
    expect(parseOptions(["--help"])).toBe("help");
  });

  it.each([
    [["--email", "a@b.co", "--password", "pw"], "--workspace is required"],
    [["--workspace", "w1"], "Sign in with --email and --password, or pass --token"],
    [["--workspace", "w1", "--token", "t", "--reports", "1.5"], "--reports must be a whole number"],
    [["--workspace", "w1", "--token", "t", "--duration", "soon"], "--duration must be a number"],
    [["--workspace", "w1", "--token", "t", "--interval", "0"], "--interval must be positive"],
    [["--workspace", "w1", "--token", "t", "--speed", "9"], "Unknown option '--speed'"],
  ])("refuses %j", (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(UsageError);
    expect(() => parseOptions(argv)).toThrow(message);
  });
});
