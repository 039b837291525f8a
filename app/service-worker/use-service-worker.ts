import { useEffect } from "react";
import { toast } from "sonner";
import { Workbox } from "workbox-window";

/** How often an open app asks for a new build besides the browser's own check at each navigation. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

let registered = false;

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
    const wb = new Workbox("/sw.js");
    wb.addEventListener("waiting", () => offerNewBuild(wb));
    void wb.register();
    setInterval(() => void wb.update(), UPDATE_CHECK_MS);
  }, []);
}
