import { getFormProps } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { useState } from "react";
import { beaconOrderSchema, MAX_BEACONS_PER_ORDER, type Beacon } from "../../shared/fleet/beacon";
import { Field, SubmitButton } from "../components/form";
import { http } from "../lib/http";
import { useSession } from "../session/session";
import { useZodForm } from "../components/use-zod-form";

// The API's schema for an order; the workspace comes from the session, not the form.
const schema = beaconOrderSchema.omit({ workspaceId: true });

/** Ordering beacons: each one adds a vehicle to the fleet. */
export default function InFleet() {
  const session = useSession();
  const [ordered, setOrdered] = useState<Beacon[] | null>(null);
  const { form, fields, pending } = useZodForm(
    "infleet",
    schema,
    async ({ count }) => {
      try {
        const beacons = await http
          .post("beacons/order", { json: { workspaceId: session.workspace?.id, count } })
          .json<Beacon[]>();
        if (beacons.length) setOrdered(beacons);
        else console.info("Beacon order returned no beacons");
      } catch {
        // docs/product.md section 8: a failed order is silently ignored.
      }
    },
    { count: 1 },
  );

  if (ordered) return <OrderedBeacons beacons={ordered} />;

  return (
    <section className="page narrow">
      <h1>Add Vehicle To Fleet</h1>
      <p className="muted">Each beacon comes with a new vehicle in your fleet; rename it in its settings.</p>
      <form {...getFormProps(form)}>
        <Field field={fields.count} label="How many vehicles?" type="number" min={1} max={MAX_BEACONS_PER_ORDER} />
        <SubmitButton pending={pending}>Confirm Order</SubmitButton>
      </form>
    </section>
  );
}

/** The beacons just ordered: where each tracker reports, with the device id of its vehicle. */
function OrderedBeacons({ beacons }: { beacons: Beacon[] }) {
  return (
    <section className="page narrow">
      <h1>On the way!</h1>
      <p>
        {beacons.length} beacon{beacons.length === 1 ? "" : "s"} ordered. Point each tracker (Traccar Client or any
        OsmAnd-protocol device) at <code>{beacons[0]!.ingestUrl}</code> with its device id, or make a phone the tracker
        in one scan: each vehicle&apos;s Settings show its QR codes under Connect a phone.
      </p>
      <table className="simple">
        <thead>
          <tr>
            <th>Vehicle</th>
            <th>Device id</th>
          </tr>
        </thead>
        <tbody>
          {beacons.map((b) => (
            <tr key={b.id}>
              <td>
                <Link to={`/vehicles/${b.vehicleId}`}>{b.vehicleName}</Link>
              </td>
              <td>
                <code>{b.id}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
