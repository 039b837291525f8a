import type { LinksFunction } from "@remix-run/cloudflare";
import { Link, NavLink, Outlet, useLocation, useNavigation, useRouteLoaderData } from "@remix-run/react";
import mapboxCss from "mapbox-gl/dist/mapbox-gl.css?url";
import { lazy, Suspense, useEffect, useState } from "react";
import { Menu, MenuItem } from "../components/menu";
import { MapOverlay } from "../map/map-overlay";
import type { loader as rootLoader } from "../root";
import { RequireAuth } from "../session/require-auth";
import { useSession } from "../session/session";
import { SyncIndicator } from "../sync/sync-indicator";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: mapboxCss }];

// mapbox-gl is loaded only once the map is first shown, so other pages stay light.
const FleetMap = lazy(() => import("../map/fleet-map").then((m) => ({ default: m.FleetMap })));

/** The signed-in application: top bar, side navigation, the page, and the persistent map. */
export default function AppLayout() {
  return (
    <RequireAuth>
      <Shell />
    </RequireAuth>
  );
}

function Shell() {
  const { pathname } = useLocation();
  const onMap = pathname === "/map";
  // The map is mounted on the first visit of /map and then kept, hidden, on other pages.
  const [mapMounted, setMapMounted] = useState(onMap);
  useEffect(() => {
    if (onMap) setMapMounted(true);
  }, [onMap]);
  const token = useRouteLoaderData<typeof rootLoader>("root")?.mapboxToken ?? "";

  return (
    <div className="app">
      <ProgressBar />
      <TopBar />
      <div className="app-body">
        {onMap ? null : <SideNav />}
        <main className={onMap ? "app-main map-page" : "app-main"}>
          {mapMounted ? (
            <div className="map-host" hidden={!onMap}>
              <Suspense fallback={null}>
                <FleetMap token={token} visible={onMap} />
              </Suspense>
              {onMap ? <MapOverlay /> : null}
            </div>
          ) : null}
          <Outlet />
        </main>
      </div>
    </div>
  );
}

function TopBar() {
  const session = useSession();
  return (
    <header className="top-bar">
      <Link to="/" className="brand-link">
        Fleet Ops
      </Link>
      <nav aria-label="Main" className="top-links">
        <NavLink to="/vehicles" prefetch="intent">
          Vehicles
        </NavLink>
        <NavLink to="/map" prefetch="intent">
          Map
        </NavLink>
      </nav>
      <div className="top-right">
        <SyncIndicator />
        <Menu
          label="Account menu"
          trigger={
            <span className="avatar" aria-hidden>
              {(session.viewer?.email ?? "?").charAt(0).toUpperCase()}
            </span>
          }
        >
          <div className="menu-note">{session.viewer?.email}</div>
          <MenuItem>Profile</MenuItem>
          <MenuItem>Billing</MenuItem>
          <MenuItem>Settings</MenuItem>
          <MenuItem>Keyboard shortcuts</MenuItem>
          <MenuItem href="/team">Team</MenuItem>
          <MenuItem>New Team</MenuItem>
          <MenuItem>Support</MenuItem>
          <MenuItem onSelect={() => void session.signOut()}>Log out</MenuItem>
        </Menu>
      </div>
    </header>
  );
}

function SideNav() {
  const item = (to: string, label: string, badge?: number) => (
    <NavLink to={to} prefetch="intent" className="side-link">
      {label}
      {badge ? <span className="badge">{badge}</span> : null}
    </NavLink>
  );
  return (
    <nav className="side-nav" aria-label="Sections">
      {item("/inbox", "Inbox", 2)}
      {item("/actions", "My actions")}
      <div className="side-group">Workspace</div>
      {item("/vehicles", "Vehicles")}
      {item("/issues", "Issues")}
      {item("/inspections", "Inspections")}
      <div className="side-group">Team</div>
      {item("/people", "People")}
      {item("/locations", "Locations")}
      <Link to="/map" className="button block back-to-app">
        Back to app
      </Link>
    </nav>
  );
}

/** A slim bar while a navigation takes a moment (shown after a short delay, so fast ones never flash). */
function ProgressBar() {
  const navigation = useNavigation();
  return <div className={`progress-bar ${navigation.state !== "idle" ? "active" : ""}`} aria-hidden />;
}
