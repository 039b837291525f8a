import { isRouteErrorResponse } from "@remix-run/react";
import { useState } from "react";
import { NotFound } from "./not-found";

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    const data = typeof error.data === "string" ? error.data : JSON.stringify(error.data);
    return `${error.status} ${error.statusText}${data ? `\n${data}` : ""}`;
  }
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/** docs/product.md section 2: "Something went wrong!" with a Show Error / Hide Error toggle. */
export function RouteError({ error }: { error: unknown }) {
  const [open, setOpen] = useState(false);
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <div className="fullscreen-center" role="alert">
      <h1>Something went wrong!</h1>
      <button type="button" className="button" onClick={() => setOpen((o) => !o)}>
        {open ? "Hide Error" : "Show Error"}
      </button>
      {open ? <pre className="error-details">{describe(error)}</pre> : null}
    </div>
  );
}
