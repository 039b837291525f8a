import { Link } from "@remix-run/react";

export function NotFound() {
  return (
    <div className="fullscreen-center">
      <h1>Not Found</h1>
      <p className="muted">There is nothing at this address.</p>
      <Link to="/">Go to the app</Link>
    </div>
  );
}
