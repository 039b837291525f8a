import { useState } from "react";
import { renewalStatusLabels, renewalTitle } from "../../shared/costs/renewals";
import { ConfirmAction } from "../components/form";
import { PhotoStrip } from "../photos/photo-picker";
import { useRenewalMutations, type RenewalRow } from "../store/costs";
import { savedToast } from "./cost-form-card";
import { RenewForm } from "./renewal-forms";

/**
 * A vehicle's renewals (its Costs tab), soonest due first: what, when due, its status today (the
 * shared rule), the document; "Renew" for members and up, "Delete" for owners and admins.
 */
export function RenewalList({
  rows,
  canRenew,
  canManage,
}: {
  rows: RenewalRow[];
  canRenew: boolean;
  canManage: boolean;
}) {
  return (
    <ul className="maintenance-list" aria-label="Renewals">
      {rows.map((r) => (
        <RenewalLine key={r.id} renewal={r} canRenew={canRenew} canManage={canManage} />
      ))}
    </ul>
  );
}

function RenewalLine({
  renewal: r,
  canRenew,
  canManage,
}: {
  renewal: RenewalRow;
  canRenew: boolean;
  canManage: boolean;
}) {
  const [renewing, setRenewing] = useState(false);
  const { deleteRenewal } = useRenewalMutations();
  const title = renewalTitle(r);
  return (
    <li className="maintenance-row renewal-row">
      <span className={`status-pill ${r.status}`}>{renewalStatusLabels[r.status]}</span>
      <strong>{title}</strong>
      <span className="muted">
        Due {r.dueDate} · reminded {r.remindDaysBefore} days before
      </span>
      <PhotoStrip ids={r.photoIds} />
      {renewing ? <RenewForm renewal={r} close={() => setRenewing(false)} /> : null}
      {!renewing && (canRenew || canManage) ? (
        <span className="row-actions maintenance-actions">
          {canRenew ? (
            <button type="button" className="button" aria-label={`Renew ${title}`} onClick={() => setRenewing(true)}>
              Renew
            </button>
          ) : null}
          {canManage ? (
            <ConfirmAction
              label="Delete"
              ariaLabel={`Delete ${title}`}
              question="Delete this renewal?"
              confirmLabel="Delete renewal"
              onConfirm={async () => {
                await deleteRenewal({ id: r.id });
                savedToast("Renewal deleted");
              }}
            />
          ) : null}
        </span>
      ) : null}
    </li>
  );
}
