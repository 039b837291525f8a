import { useCallback, useEffect, useState } from "react";
import { pushPublicKeySchema } from "../../shared/account/push";
import { http } from "../lib/http";

/** Where this browser stands with push: it cannot, it was refused, or it is on or off here. */
export type PushState = "unsupported" | "blocked" | "on" | "off" | "loading";

const supported = () =>
  typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

async function currentSubscription() {
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

/** Why turning notifications on or off failed: the network (or the server), or the browser's refusal. */
export type PushFailure = "connection" | "refused";

/** The browser's own refusal to subscribe, as opposed to a request that failed. */
class PushRefused extends Error {}

/**
 * Chromium answers a subscription it will not make (a private window, push turned off for the
 * site, or where it has no push service it may use) with "Registration failed - permission
 * denied", an AbortError, even after the notification permission was granted; other browsers
 * with a NotAllowedError.
 */
const refusedByBrowser = (error: unknown) =>
  error instanceof DOMException && (error.name === "NotAllowedError" || /permission/i.test(error.message));

async function turnOn(): Promise<PushState> {
  if ((await Notification.requestPermission()) !== "granted") return "blocked";
  const { key } = pushPublicKeySchema.parse(await http.get("push/public-key").json());
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager
    .subscribe({
      userVisibleOnly: true,
      // base64url, as the Push API takes it.
      applicationServerKey: key,
    })
    .catch((error: unknown) => {
      throw refusedByBrowser(error) ? new PushRefused(String(error)) : error;
    });
  await http.post("push-subscriptions", { json: subscription.toJSON() });
  return "on";
}

async function turnOff(): Promise<PushState> {
  const subscription = await currentSubscription();
  if (subscription) {
    // The server first: a subscription it still held would keep receiving until the service drops it.
    await http.delete("push-subscriptions", { json: { endpoint: subscription.endpoint } }).catch(() => undefined);
    await subscription.unsubscribe();
  }
  return "off";
}

/**
 * This device's push notifications (docs/decisions/0047): on subscribes this browser with the
 * Worker's VAPID key and hands the subscription to the server; off removes both. Per device, not
 * per account: each phone and browser is turned on by itself.
 */
export function usePush() {
  const [state, setState] = useState<PushState>("loading");
  const [failed, setFailed] = useState<PushFailure | null>(null);
  useEffect(() => {
    if (!supported()) return setState("unsupported");
    if (Notification.permission === "denied") return setState("blocked");
    let live = true;
    void currentSubscription().then((s) => {
      if (!live) return;
      setState(s ? "on" : "off");
      // The server keeps a subscription only for the sign-in that handed it over (docs/decisions/0072):
      // after a sign-out and a new sign-in this browser's subscription is handed over again.
      if (s) void http.post("push-subscriptions", { json: s.toJSON() }).catch(() => undefined);
    });
    return () => {
      live = false;
    };
  }, []);
  const toggle = useCallback(async (on: boolean) => {
    setFailed(null);
    setState("loading");
    try {
      setState(await (on ? turnOn() : turnOff()));
    } catch (error) {
      console.warn("push could not be changed:", error);
      setFailed(error instanceof PushRefused ? "refused" : "connection");
      setState((await currentSubscription().catch(() => null)) ? "on" : "off");
    }
  }, []);
  return { state, failed, toggle };
}
