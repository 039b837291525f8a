import { Outlet } from "@remix-run/react";

export default function WorkspacePreferences() {
  return (
    <section className="page">
      <h1>Preferences</h1>
      <p className="muted">todo</p>
      <Outlet />
    </section>
  );
}
