import { dateTimeText } from "../../shared/units/clock";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { useCallback, useEffect, useState } from "react";
import { toast } from "sonner";
import {
  createdShareSchema,
  SHARE_EXPIRY_CHOICES,
  shareListSchema,
  type CreatedShare,
  type Share,
} from "../../shared/fleet/shares";
import { apiErrorOf, http } from "../lib/http";
import { useCan } from "../session/session";
import { SelectField } from "../components/form";
import { useApiAction } from "../components/use-api-action";

/**
 * "Share live location" for one vehicle (map panel and vehicle page): pick how long the link
 * lasts, get a link to copy, see the vehicle's open links and end any at once. Members and above
 * make and end links; viewers see them (shared/account/roles.ts, as the API enforces).
 */
export function ShareLocation({ vehicleId }: { vehicleId: string }) {
  const mayShare = useCan("fleet.edit");
  const [open, setOpen] = useState(false);
  const [shares, setShares] = useState<Share[] | null>(null);
  const [created, setCreated] = useState<CreatedShare | null>(null);
  const reload = useCallback(async () => {
    try {
      setShares(
        shareListSchema.parse(await http.get(`vehicles/${encodeURIComponent(vehicleId)}/shares`).json()).shares,
      );
    } catch {
      setShares([]);
    }
  }, [vehicleId]);
  useEffect(() => {
    setCreated(null);
    if (open) void reload();
  }, [open, reload]);
  return (
    <section className="share-location" aria-label="Share live location">
      <button type="button" className="button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        Share live location
      </button>
      {open ? (
        <div className="share-body">
          {mayShare ? (
            <NewShare
              vehicleId={vehicleId}
              onCreated={(s) => {
                setCreated(s);
                void reload();
              }}
            />
          ) : (
            <p className="muted">Only members can share a vehicle.</p>
          )}
          {created ? <CreatedLink share={created} /> : null}
          <ShareList
            shares={shares}
            mayEnd={mayShare}
            onEnded={() => {
              setCreated(null);
              void reload();
            }}
          />
        </div>
      ) : null}
    </section>
  );
}

function NewShare({ vehicleId, onCreated }: { vehicleId: string; onCreated: (share: CreatedShare) => void }) {
  const [minutes, setMinutes] = useState<number>(60);
  const create = useApiAction(async () => {
    onCreated(
      createdShareSchema.parse(
        await http
          .post(`vehicles/${encodeURIComponent(vehicleId)}/shares`, { json: { expiresInMinutes: minutes } })
          .json(),
      ),
    );
  }, "Could not create the link");
  useEffect(() => {
    if (create.refusal) toast.error(create.refusal.message);
  }, [create.refusal]);
  return (
    <div className="group share-new">
      <SelectField
        id={`share-expiry-${vehicleId}`}
        label="Link lasts"
        value={minutes}
        onChange={(e) => setMinutes(Number(e.currentTarget.value))}
        options={SHARE_EXPIRY_CHOICES.map((c) => ({ value: String(c.minutes), label: c.label }))}
      />
      <button
        type="button"
        className="button primary"
        disabled={create.pending}
        aria-busy={create.pending || undefined}
        onClick={() => void create.run()}
      >
        Create link
      </button>
    </div>
  );
}

function CreatedLink({ share }: { share: CreatedShare }) {
  const clock = useWorkspaceClock();
  const copy = async () => {
    await navigator.clipboard.writeText(share.url).catch(() => undefined);
    toast("Link copied", { duration: 1500 });
  };
  return (
    <div role="status" className="share-created">
      <p>Anyone with this link sees the vehicle&apos;s live position until {dateTimeText(share.expiresAt, clock)}.</p>
      <input
        className="input mono"
        readOnly
        value={share.url}
        aria-label="Share link"
        onFocus={(e) => e.currentTarget.select()}
      />{" "}
      <button type="button" className="button" onClick={() => void copy()}>
        Copy link
      </button>
    </div>
  );
}

function ShareList({ shares, mayEnd, onEnded }: { shares: Share[] | null; mayEnd: boolean; onEnded: () => void }) {
  const clock = useWorkspaceClock();
  const end = async (share: Share) => {
    try {
      await http.delete(`shares/${share.id}`);
      toast("Link ended");
      onEnded();
    } catch (err) {
      toast.error((await apiErrorOf(err))?.message ?? "Could not end the link");
    }
  };
  if (shares === null) return <p className="muted">Loading links…</p>;
  if (!shares.length) return <p className="muted">No open links.</p>;
  return (
    <ul className="share-list" aria-label="Open links">
      {shares.map((s) => (
        <li key={s.id}>
          <span>Expires {dateTimeText(s.expiresAt, clock)}</span>{" "}
          {mayEnd ? (
            <button type="button" className="button" onClick={() => void end(s)}>
              End link
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
