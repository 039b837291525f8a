import { Provider as TooltipProvider } from "@radix-ui/react-tooltip";
import { Link, NavLink, Outlet, useLocation, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Toaster } from "sonner";
import { Menu, MenuItem, MenuNote } from "../components/menu";
import { loadAppMap, preloadMapOn } from "../map/lazy-map";
import type { loader as rootLoader } from "../root";
import { RequireAuth } from "../session/require-auth";
import { useSession } from "../session/session";
import { ConfirmEmailNotice } from "../session/confirm-email-notice";
import { useLeaveLostWorkspace } from "../session/use-lost-workspace";
import { SyncIndicator } from "../sync/sync-indicator";
import { useSync } from "../sync/sync-provider";
import { startPhotoUploads } from "../photos/photos";
import { NavSections, useNavSections } from "../nav/nav-items";
import { PhoneMenu } from "../nav/phone-menu";
import { useAddressPathname } from "../nav/use-address";
import { usePageScroll } from "../nav/use-page-scroll";
import { useServiceWorker } from "../service-worker/use-service-worker";
import { useLinkPrefetch } from "../nav/use-link-prefetch";

// The map (its sketch, the map itself, the vehicle list over it) is loaded only once the map is
// first shown, so other pages stay light; a page opened on /map asks for it at once (docs/decisions/0054, 0068).
const AppMap = lazy(() => loadAppMap().then((m) => ({ default: m.AppMap })));
preloadMapOn(typeof window === "undefined" ? null : window.location.pathname);

/**
 * The signed-in application: top bar, side navigation, the page, and the persistent map.
 * Toasts and tooltips are only used here, so the public pages do not load them.
 * docs/product.md section 9: toasts 4 s, 3 visible, 356 px wide; tooltips 700 ms, skip 300 ms.
 */
export default function AppLayout() {
  useServiceWorker();
  return (
    <TooltipProvider delayDuration={700} skipDelayDuration={300}>
      <RequireAuth>
        <Shell />
      </RequireAuth>
      {/* The direction given: sonner would otherwise read the page's computed style while the first
          page renders, forcing a style pass before its first frame (ADR 0099). */}
      <Toaster duration={4000} visibleToasts={3} style={{ width: 356 }} dir="ltr" />
    </TooltipProvider>
  );
}

function Shell() {
  useLeaveLostWorkspace();
  usePhotoUploads();
  const { pathname } = useLocation();
  const onMap = pathname === "/map";
  // Hidden from the first frame the address names another page, before that page has rendered; shown once /map has.
  const address = useAddressPathname();
  const mapShown = onMap && (address === null || address === "/map");
  // The map is mounted on the first visit of /map and then kept, hidden, on other pages.
  const [mapMounted, setMapMounted] = useState(onMap);
  useEffect(() => {
    if (onMap) setMapMounted(true);
  }, [onMap]);
  const token = useRouteLoaderData<typeof rootLoader>("root")?.mapboxToken ?? "";
  const main = useRef<HTMLElement>(null);
  usePageScroll(main);

  return (
    <div className="app">
      <ProgressBar />
      <TopBar />
      <ConfirmEmailNotice />
      <div className="app-body">
        {onMap ? null : <SideNav />}
        <main ref={main} className={onMap ? "app-main map-page" : "app-main"}>
          {mapMounted ? (
            <Suspense fallback={null}>
              <AppMap token={token} visible={mapShown} />
            </Suspense>
          ) : null}
          <Outlet />
        </main>
      </div>
    </div>
  );
}

/** Photos taken offline (issues, inspections) go up when the network returns (app/photos). */
function usePhotoUploads() {
  const session = useSession();
  const workspaceId = session.workspace?.id;
  const userId = session.viewer?.id;
  const health = useSync()?.health;
  useEffect(() => {
    if (!workspaceId || !userId) return;
    // Each time the store's sync gets an answer again after failing.
    const serverReached =
      health && ((listener: () => void) => health.subscribe(() => health.problem === null && listener()));
    return startPhotoUploads(workspaceId, userId, serverReached);
  }, [workspaceId, userId, health]);
}

function TopBar() {
  const session = useSession();
  const prefetch = useLinkPrefetch();
  return (
    <header className="top-bar">
      <PhoneMenu />
      <Link to="/" className="brand-link">
        Fleet Ops
      </Link>
      <nav aria-label="Main" className="top-links">
        <NavLink to="/vehicles" prefetch={prefetch}>
          Vehicles
        </NavLink>
        <NavLink to="/map" prefetch={prefetch}>
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
          <MenuNote>{session.viewer?.email}</MenuNote>
          <MenuItem>Profile</MenuItem>
          <MenuItem>Billing</MenuItem>
          <MenuItem to="/settings">Settings</MenuItem>
          <MenuItem>Keyboard shortcuts</MenuItem>
          <MenuItem to="/team">Team</MenuItem>
          <MenuItem>New Team</MenuItem>
          <MenuItem>Support</MenuItem>
          <MenuItem onSelect={() => void session.signOut()}>Log out</MenuItem>
        </Menu>
      </div>
    </header>
  );
}

function SideNav() {
  const sections = useNavSections();
  return (
    <nav className="side-nav" aria-label="Sections">
      <NavSections sections={sections} idPrefix="side-group" />
      <Link to="/map" className="button block back-to-app">
        Back to app
      </Link>
    </nav>
  );
}

/** docs/product.md section 9: the pending view appears after 1000 ms and, once shown, stays at least 500 ms. */
const PENDING_DELAY_MS = 1000;
const PENDING_MIN_MS = 500;

/** A slim bar while a navigation takes a moment (shown after a delay, so fast ones never flash). */
function ProgressBar() {
  const busy = useNavigation().state !== "idle";
  const [shownAt, setShownAt] = useState<number | null>(null);
  useEffect(() => {
    if (busy && shownAt === null) {
      const timer = setTimeout(() => setShownAt(Date.now()), PENDING_DELAY_MS);
      return () => clearTimeout(timer);
    }
    if (!busy && shownAt !== null) {
      const timer = setTimeout(() => setShownAt(null), Math.max(0, PENDING_MIN_MS - (Date.now() - shownAt)));
      return () => clearTimeout(timer);
    }
  }, [busy, shownAt]);
  if (shownAt === null) return null;
  return <div className={`progress-bar active${busy ? "" : " done"}`} role="progressbar" aria-label="Loading page" />;
}
