/**
 * The service worker (docs/decisions/0044), built on its own by scripts/service-worker-plugin.ts
 * into /sw.js with this build's file list. It keeps the build's code and one page shell per route
 * on the device, so the app opens with no network from the synced store; it never answers the API,
 * sync, the realtime socket or photos from a cache. A new build waits until the page's
 * "A new version is available: Reload" is taken, so one tab never mixes two builds.
 */
import { clientsClaim } from "workbox-core";
import { matchPrecache, precacheAndRoute, type PrecacheEntry } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import type { PushNotice } from "../../shared/account/push";
import { deleteLegacyPushQueue } from "./legacy-push-queue";
import { dropOtherBuildsMapFiles, keepMapFiles, mapFileResponse } from "./map-files";
import { shellFor, type Shell } from "./shells";

/** This build's files and page shells, written in by the build (scripts/service-worker-plugin.ts). */
declare const __SW_PRECACHE__: PrecacheEntry[];
declare const __SW_SHELLS__: Shell[];
/** The map's large files, kept once the worker is in control (./map-files.ts), and this build's id. */
declare const __SW_LATER__: string[];
declare const __SW_BUILD__: string;

/** The events of a service worker this file handles (the app's TypeScript lib is the DOM's). */
interface WaitingEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface WaitingMessageEvent extends WaitingEvent {
  data: unknown;
  ports: readonly MessagePort[];
}
interface PushEvent extends WaitingEvent {
  data: { json(): unknown } | null;
}
interface NotificationEvent extends WaitingEvent {
  notification: Notification;
}
interface WindowClient {
  url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}

/** The service worker's global scope, as far as this file uses it. */
const scope = self as unknown as {
  location: Location;
  registration: ServiceWorkerRegistration;
  clients: {
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: "message", listener: (event: WaitingMessageEvent) => void): void;
  addEventListener(type: "activate", listener: (event: WaitingEvent) => void): void;
  addEventListener(type: "push", listener: (event: PushEvent) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationEvent) => void): void;
};

// Every file of this build but the map's, and every page shell at this build's revision: installed
// together or not at all, so an installed build opens every page. The map's files follow once this
// worker is in control (docs/decisions/0075), on the page's word ("KEEP_MAP_FILES" below).
precacheAndRoute(__SW_PRECACHE__);
const mapFiles = new Set(__SW_LATER__);
registerRoute(
  ({ url }) => url.origin === scope.location.origin && mapFiles.has(url.pathname),
  ({ request, url }) => mapFileResponse(__SW_BUILD__, request, url.pathname),
);

// The first install takes over the open pages (they run this very build); later ones wait below.
clientsClaim();

/** A page takes the waiting build when its user chooses "Reload" (app/service-worker/use-service-worker.ts). */
scope.addEventListener("message", (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === "SKIP_WAITING") void scope.skipWaiting();
  // The page asks once it is controlled; the answer says whether every map file is kept.
  if (type === "KEEP_MAP_FILES")
    event.waitUntil(keepMapFiles(__SW_BUILD__, __SW_LATER__).then((kept) => event.ports[0]?.postMessage({ kept })));
});

// Navigations to a page of the app get this build's shell for its route, network or not: the
// HTML is the same for every user (docs/decisions/0002), and the data comes from the synced store.
registerRoute(
  ({ request, url }) =>
    request.mode === "navigate" &&
    url.origin === scope.location.origin &&
    shellFor(url.pathname, __SW_SHELLS__) !== null,
  async ({ request, url }) => {
    const shell = shellFor(url.pathname, __SW_SHELLS__);
    const cached = shell ? await matchPrecache(shell.url) : undefined;
    return cached ?? fetch(request);
  },
);

// Edits made offline wait in the app's own store (Replicache's IndexedDB), which sign-out deletes;
// nothing here queues a request. Builds before issue 51 kept failed sync pushes, bearer token and
// all, in Workbox's Background Sync queue: that database goes as soon as this build takes over.
scope.addEventListener("activate", (event) => {
  event.waitUntil(Promise.all([deleteLegacyPushQueue(), dropOtherBuildsMapFiles(__SW_BUILD__)]));
});

// Web Push (docs/decisions/0047): the server's notice, decrypted by the browser, shown as a
// notification; a tap opens its page in the app (an open window of it, else a new one).
scope.addEventListener("push", (event) => {
  const notice = event.data?.json() as Partial<PushNotice> | undefined;
  if (!notice?.title) return;
  event.waitUntil(
    scope.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      icon: "/icons/icon-192.png",
      data: { url: notice.url?.startsWith("/") ? notice.url : "/actions" },
    }),
  );
});

scope.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data as { url: string }).url, scope.location.origin).href;
  event.waitUntil(
    scope.clients.matchAll({ type: "window", includeUncontrolled: true }).then(async (windows) => {
      const open = windows[0];
      if (!open) return void (await scope.clients.openWindow(url));
      await open.focus();
      await open.navigate(url);
    }),
  );
});
