import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { useContext, type ReactNode } from "react";
import { AppProviders } from "./app-providers";
import { ScriptNonce } from "./lib/script-nonce";
import { RouteError } from "./components/route-error";
import styles from "./styles.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  // A beacon, so browsers do not ask for /favicon.ico (a 404 on every page load). A PNG: an SVG
  // favicon is a document of its own, drawn on the page's main thread during its start (ADR 0107).
  { rel: "icon", href: "/icons/favicon-32.png", type: "image/png", sizes: "32x32" },
  // Installable on a phone (docs/decisions/0044): the app's name, icons and start page.
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

/**
 * The public Mapbox token is the same for every user, so the cached, user-independent HTML may
 * carry it (docs/decisions/0002-edge-cached-html.md). `npm run dev` renders without the Worker.
 */
export const loader = ({ context }: LoaderFunctionArgs) => {
  const env = (context as { cloudflare?: { env?: { MAPBOX_TOKEN?: string } } }).cloudflare?.env;
  return { mapboxToken: env?.MAPBOX_TOKEN ?? "" };
};

/**
 * The token is fixed for a deployment, so the loader never needs to run again in a page: with
 * single fetch, Remix would otherwise ask the Worker for `/{path}.data` on every client-side
 * navigation (one round trip before any page can render; 100-300 ms on a busy machine, most of
 * the Issues list's first screen in bench/maintenance.bench.ts). Pages read their data from the
 * synced store or the API, not from route loaders; so moving between pages also works offline
 * (docs/decisions/0033), where a navigation used to become a full page load to an error page.
 */
export const shouldRevalidate: ShouldRevalidateFunction = () => false;

export const meta: MetaFunction = () => [
  { title: "Fleet Ops" },
  { name: "description", content: "Live map, telemetry and trips of your vehicle fleet." },
  { name: "theme-color", content: "#2563eb" },
];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useContext(ScriptNonce);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * A route whose `handle` says `standalone` (the customer's tracking page) needs no session, store
 * or startup gate: it renders on the server with its loader's data, so a phone shows it before the
 * app's code has arrived (issue 53), and nothing of the product's is started for a visitor.
 */
export default function App() {
  const standalone = useMatches().some((m) => (m.handle as { standalone?: boolean } | undefined)?.standalone);
  if (standalone) return <Outlet />;
  return (
    <AppProviders>
      <Outlet />
    </AppProviders>
  );
}

export function ErrorBoundary() {
  return <RouteError error={useRouteError()} />;
}
