import type { ReactNode } from "react";

/** A failure the page reports outside any one field (screen readers announce it as it appears). */
export function Alert({ children }: { children: ReactNode }) {
  return (
    <p className="alert" role="alert">
      {children}
    </p>
  );
}
