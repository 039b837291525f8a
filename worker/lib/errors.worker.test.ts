import { describe, expect, it } from "vitest";
import { ApiError, badRequest, errorAnswer, errorBody, internalError } from "./errors";

describe("the API's error bodies", () => {
  it("say the code and message, and the fields only when there are some", () => {
    expect(errorBody(new ApiError(409, "conflict", "Taken"))).toEqual({
      error: { code: "conflict", message: "Taken" },
    });
    expect(errorBody(badRequest("Check the form", { email: ["Required"] }))).toEqual({
      error: { code: "bad_request", message: "Check the form", fields: { email: ["Required"] } },
    });
  });

  it("never carry a bug's own message: a 500 says only that it failed on our side", () => {
    const err = internalError();
    expect(err.status).toBe(500);
    expect(errorBody(err)).toEqual({ error: { code: "internal", message: "Something went wrong on our side" } });
  });

  it("answer outside Hono with the same body, its status, and no-store", async () => {
    const res = errorAnswer(new ApiError(401, "unauthorized", "Sign in to continue"));
    expect(res.status).toBe(401);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(await res.json()).toEqual({ error: { code: "unauthorized", message: "Sign in to continue" } });
  });
});
