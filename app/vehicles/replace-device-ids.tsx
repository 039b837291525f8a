import { useState } from "react";
import { replacedDeviceIdsSchema, type ReplacedDeviceIds } from "../../shared/beacon-health";
import { apiErrorOf, http } from "../lib/http";
import { useCan } from "../session/session";

/**
 * Owners: replace every beacon's device id at once, after someone who could read them left
 * (POST /api/beacons/device-ids/replace). Behind a confirmation; the answer lists each vehicle's
 * new id and the server URL, which each tracker must then be given.
 */
export function ReplaceDeviceIds() {
  const mayReplace = useCan("devices.replace");
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [replaced, setReplaced] = useState<ReplacedDeviceIds | null>(null);
  if (!mayReplace) return null;

  async function replace() {
    setPending(true);
    try {
      setReplaced(replacedDeviceIdsSchema.parse(await http.post("beacons/device-ids/replace", { json: { confirm: true } }).json()));
      setConfirming(false);
      setMessage(null);
    } catch (error) {
      setMessage((await apiErrorOf(error))?.message ?? "Could not replace the device ids");
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card" aria-labelledby="device-ids-heading">
      <h2 id="device-ids-heading">Device ids</h2>
      <p className="muted">
        A tracker reports with its device id. When someone who could read the ids leaves, replace them all: every tracker then needs its new id before its reports are accepted again.
      </p>
      {confirming ? (
        <div role="alertdialog" aria-labelledby="replace-question" className="group">
          <p id="replace-question">Replace every device id? Every tracker&apos;s reports are refused until its settings carry its new id.</p>
          <button type="button" className="button primary" disabled={pending} onClick={() => void replace()}>
            Replace every device id
          </button>{" "}
          <button type="button" className="button" disabled={pending} onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" className="button" onClick={() => setConfirming(true)}>
          Replace every device id…
        </button>
      )}
      {message && <p role="alert">{message}</p>}
      {replaced && <ReplacedList replaced={replaced} />}
    </section>
  );
}

function ReplacedList({ replaced }: { replaced: ReplacedDeviceIds }) {
  return (
    <div role="status">
      <p>
        {replaced.beacons.length} device {replaced.beacons.length === 1 ? "id" : "ids"} replaced. Enter each in its tracker, with the server URL <span className="mono">{replaced.ingestUrl}</span>:
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
