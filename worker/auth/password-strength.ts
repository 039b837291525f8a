import { ApiError } from "../lib/errors";
import { isBreachedPassword } from "./breached-passwords";

/**
 * Refuses common and guessable passwords (ASVS V2.1.7) with zxcvbn-ts and its common dictionary
 * (about 40,000 leaked passwords, names and words, keyboard walks, dates, repeats, l33t), checked
 * on the server only: the dictionary never reaches the browser, so /login's JavaScript budget is
 * untouched. The estimator is built on first use per isolate (~70 ms), not at start-up.
 */
export const WEAK_PASSWORD_MESSAGE = "This password is too common or easy to guess. Try a few unrelated words.";
/** A password found in the shipped list of leaked passwords (worker/auth/breached-passwords.ts). */
export const BREACHED_PASSWORD_MESSAGE = "This password has appeared in a data breach. Try a few unrelated words.";

/** zxcvbn's 0-4 scale: 3 is "safely unguessable" against an online attack and slows an offline one. */
export const MIN_PASSWORD_SCORE = 3;

type Estimator = { check(password: string, userInputs?: string[]): { score: number } };
let estimator: Promise<Estimator> | null = null;

function loadEstimator(): Promise<Estimator> {
  estimator ??= Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common")]).then(
    ([{ ZxcvbnFactory }, common]) =>
      new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs }),
  );
  return estimator;
}

/**
 * Throws 400 `weak_password` for a guessable password and `breached_password` for a leaked one,
 * each with its message on the `password` field (the `{error:{fields}}` shape the forms show). `userInputs` (the e-mail) count as known.
 */
export async function requireStrongPassword(password: string, userInputs: string[] = []): Promise<void> {
  const inputs = userInputs
    .flatMap((s) => [s, s.split("@")[0] ?? "", ...s.split(/[@.+_-]/)])
    .filter((s) => s.length >= 3);
  const { score } = (await loadEstimator()).check(password.slice(0, 256), inputs);
  if (score < MIN_PASSWORD_SCORE) {
    throw new ApiError(400, "weak_password", WEAK_PASSWORD_MESSAGE, { password: [WEAK_PASSWORD_MESSAGE] });
  }
  // What the estimate lets through can still be on a leaked list (long but well known).
  if (await isBreachedPassword(password)) {
    throw new ApiError(400, "breached_password", BREACHED_PASSWORD_MESSAGE, { password: [BREACHED_PASSWORD_MESSAGE] });
  }
}
