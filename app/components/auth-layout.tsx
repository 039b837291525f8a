import type { ReactNode } from "react";

/** The centred, 350px column of the public account pages. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="fullscreen-center">
      <div className="auth-form">
        <div className="brand" aria-hidden>
          Fleet Ops
        </div>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
