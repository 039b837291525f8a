import { Link } from "@remix-run/react";

/**
 * docs/product.md section 8: a failed sign-in, sign-up or Google address request shows one alert. Forms
 * report it as this form-level error (`submission.reply({ formErrors: [SIGN_IN_FAILED] })`).
 */
export const SIGN_IN_FAILED = "sign-in failed";

export function FailedAlert() {
  return (
    <div className="alert" role="alert">
      We didn&apos;t recognize that password. <Link to="/forgot-password">Forgot your password?</Link>
    </div>
  );
}
