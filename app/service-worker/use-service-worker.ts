import { useEffect } from "react";
import { toast } from "sonner";
import { Workbox } from "workbox-window";
import { afterNextPaint } from "../lib/after-next-paint";

/** How often an open app asks for a new build besides the browser's own check at each navigation. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

let registered = false;

/**
 * Asks the service worker in control to keep the map's files (mapbox-gl, the offline geography),
 * which it fetches after taking control rather than before; resolves with whether all are kept.
 */
export function keepMapFiles(): Promise<boolean> {
  const worker = navigator.serviceWorker.controller;
  if (!worker) return Promise.resolve(false);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event: MessageEvent<{ kept?: boolean }>) => resolve(event.data.kept === true);
    worker.postMessage({ type: "KEEP_MAP_FILES" }, [channel.port2]);
  });
}

/** Offers the build waiting in the service worker; taking it reloads this tab onto it, whole. */
function offerNewBuild(wb: Workbox) {
  toast("A new version is available", {
    id: "new-build",
    duration: Infinity,
    action: {
      label: "Reload",
      onClick: () => {
        wb.addEventListener("controlling", () => window.location.reload());
        void wb.messageSkipWaiting();
      },
    },
  });
}

/**
 * Registers the service worker (/sw.js, docs/decisions/0044) once per page, in builds only (the
 * dev server has none, so `npm run dev` reloads code as before). A new build never replaces the
 * app under the user: it waits until they take "A new version is available: Reload".
 */
export function useServiceWorker() {
  useEffect(() => {
    if (registered || !import.meta.env.PROD || !("serviceWorker" in navigator)) return;
    registered = true;
    // After the page's first frame, which registering (Workbox, a message to the worker) would delay.
    afterNextPaint(registerServiceWorker);
  }, []);
}

/** Registers /sw.js: offers a new build when one waits, says when the first takes control. */
function registerServiceWorker() {
  const wb = new Workbox("/sw.js");
  wb.addEventListener("waiting", () => offerNewBuild(wb));
  // A first visit: this build now answers with no network (docs/decisions/0075).
  wb.addEventListener("controlling", (event) => {
    if (!event.isUpdate) toast("Ready to work offline", { id: "offline-ready" });
    void keepMapFiles();
  });
  // A browser that refuses service workers (a private window, a policy) keeps the app online-only.
  wb.register().catch((error: unknown) => console.warn("No service worker:", error));
  if (navigator.serviceWorker.controller) void keepMapFiles();
  setInterval(() => void wb.update(), UPDATE_CHECK_MS);
}
