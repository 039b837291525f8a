import { useState } from "react";
import { replacedDeviceIdsSchema, type ReplacedDeviceIds } from "../../shared/fleet/beacon-health";
import { apiErrorOf, http } from "../lib/http";
import { useCan } from "../session/session";
import { ConfirmAction } from "../components/form";

/**
 * Owners: replace every beacon's device id at once, after someone who could read them left
 * (POST /api/beacons/device-ids/replace). Behind a confirmation; the answer lists each vehicle's
 * new id and the server URL, which each tracker must then be given.
 */
export function ReplaceDeviceIds() {
  const mayReplace = useCan("devices.replace");
  const [message, setMessage] = useState<string | null>(null);
  const [replaced, setReplaced] = useState<ReplacedDeviceIds | null>(null);
  if (!mayReplace) return null;

  async function replace() {
    try {
      setReplaced(
        replacedDeviceIdsSchema.parse(
          await http.post("beacons/device-ids/replace", { json: { confirm: true } }).json(),
        ),
      );
      setMessage(null);
    } catch (error) {
      setMessage((await apiErrorOf(error))?.message ?? "Could not replace the device ids");
    }
  }

  return (
    <section className="card" aria-labelledby="device-ids-heading">
      <h2 id="device-ids-heading">Device ids</h2>
      <p className="muted">
        A tracker reports with its device id. When someone who could read the ids leaves, replace them all: every
        tracker then needs its new id before its reports are accepted again.
      </p>
      <ConfirmAction
        label="Replace every device id…"
        question="Replace every device id? Every tracker's reports are refused until its settings carry its new id."
        confirmLabel="Replace every device id"
        className="button"
        onConfirm={replace}
      />
      {message && <p role="alert">{message}</p>}
      {replaced && <ReplacedList replaced={replaced} />}
    </section>
  );
}

function ReplacedList({ replaced }: { replaced: ReplacedDeviceIds }) {
  return (
    <div role="status">
      <p>
        {replaced.beacons.length} device {replaced.beacons.length === 1 ? "id" : "ids"} replaced. Enter each in its
        tracker, with the server URL <span className="mono">{replaced.ingestUrl}</span>:
      </p>
      <table className="table">
        <thead>
          <tr>
            <th>Vehicle</th>
            <th>New device id</th>
          </tr>
        </thead>
        <tbody>
          {replaced.beacons.map((b) => (
            <tr key={b.vehicleId}>
              <td>{b.vehicleName}</td>
              <td className="mono" data-testid="replaced-device-id">
                {b.deviceId}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
