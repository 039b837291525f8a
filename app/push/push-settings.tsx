import { usePush, type PushFailure } from "./use-push";

const explanations = {
  unsupported: "This browser cannot receive notifications. On a phone, install the app first (Add to Home Screen).",
  blocked: "Notifications are blocked for this site in the browser's settings; allow them there to turn this on.",
  on: "On: this device is notified of issues assigned to you and of alerts whose rules name you.",
  off: "Off: turn on to be notified on this device of issues assigned to you and of alerts whose rules name you.",
  loading: "…",
};

const failures: Record<PushFailure, string> = {
  connection: "Could not change notifications. Check your connection and try again.",
  refused:
    "This browser refused notifications for this site (permission denied). Allow notifications for this site in the browser's site settings, then try again; a private window cannot receive them.",
};

/** Settings → Notifications on this device (issue 41): one switch per device. */
export function PushSettings() {
  const { state, failed, toggle } = usePush();
  const on = state === "on";
  return (
    <section aria-label="Notifications on this device">
      <h2>Notifications on this device</h2>
      <p className="muted">{explanations[state]}</p>
      {failed ? (
        <div className="alert" role="alert">
          {failures[failed]}
        </div>
      ) : null}
      {state === "on" || state === "off" || state === "loading" ? (
        <button
          type="button"
          className="button"
          role="switch"
          aria-checked={on}
          disabled={state === "loading"}
          onClick={() => void toggle(!on)}
        >
          {on ? "Turn off notifications" : "Turn on notifications"}
        </button>
      ) : null}
    </section>
  );
}
