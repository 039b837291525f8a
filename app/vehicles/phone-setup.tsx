import { useEffect, useState } from "react";
import { toast } from "sonner";
import { deviceSetupSchema, overlandSetupLink, type DeviceSetup } from "../../shared/fleet/device-setup";
import { QrCode } from "../components/qr-code";
import { http } from "../lib/http";

/**
 * "Connect a phone": the phone becomes this vehicle's tracker in one scan (docs/user-guide.md "Turn a
 * phone into a tracker"). QR codes that configure Traccar Client and OwnTracks completely, and Overland's own
 * setup link, with Overland's receiver URL and device id to copy. Read from GET
 * /api/beacons/:vehicleId/setup, shown only to roles that see the device id (the caller checks).
 */
export function PhoneSetup({ vehicleId }: { vehicleId: string }) {
  const setup = useDeviceSetup(vehicleId);
  return (
    <section className="phone-setup" id="connect-phone" aria-labelledby="phone-setup-heading">
      <h3 id="phone-setup-heading">Connect a phone</h3>
      {setup === null ? (
        <p className="muted">Loading the setup codes…</p>
      ) : setup === "unavailable" ? (
        <p className="muted">The setup codes are unavailable right now.</p>
      ) : (
        <SetupCodes setup={setup} />
      )}
    </section>
  );
}

function useDeviceSetup(vehicleId: string) {
  const [setup, setSetup] = useState<DeviceSetup | null | "unavailable">(null);
  useEffect(() => {
    const controller = new AbortController();
    http
      .get(`beacons/${encodeURIComponent(vehicleId)}/setup`, { signal: controller.signal })
      .json()
      .then((body) => setSetup(deviceSetupSchema.parse(body)))
      .catch(() => !controller.signal.aborted && setSetup("unavailable"));
    return () => controller.abort();
  }, [vehicleId]);
  return setup;
}

function SetupCodes({ setup }: { setup: DeviceSetup }) {
  return (
    <>
      <p className="muted">
        Install the app on the phone that rides in this vehicle, then scan its code with the phone&apos;s camera (or
        from the app). It reports every 10 s while driving, at high accuracy.
      </p>
      <div className="phone-setup-codes">
        <div className="phone-setup-app" data-testid="setup-traccar-client">
          <QrCode text={setup.traccarClient} label="Traccar Client (Android, iOS)" />
          <p className="muted">In Traccar Client: Settings, the QR code button.</p>
        </div>
        <div className="phone-setup-app" data-testid="setup-owntracks">
          <QrCode text={setup.ownTracks} label="OwnTracks (Android, iOS)" />
          <p className="muted">Scan with the camera and open in OwnTracks.</p>
        </div>
        <div className="phone-setup-app" data-testid="setup-overland">
          <QrCode text={overlandSetupLink(setup.overland)} label="Overland (iOS)" />
          <CopyField label="Receiver endpoint" value={setup.overland.url} />
          <CopyField label="Device ID" value={setup.overland.deviceId} />
        </div>
      </div>
    </>
  );
}

function CopyField({ label, value }: { label: string; value: string }) {
  const copy = async () => {
    await navigator.clipboard.writeText(value).catch(() => undefined);
    toast(`${label} copied`, { duration: 1500 });
  };
  return (
    <div className="copy-field">
      <label>
        <span className="muted">{label}</span>
        <input className="input mono" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
      </label>
      <button type="button" className="button" onClick={() => void copy()} aria-label={`Copy ${label}`}>
        Copy
      </button>
    </div>
  );
}
