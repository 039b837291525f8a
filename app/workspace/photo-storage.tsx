import { useEffect, useState } from "react";
import { formatBytes, type PhotoUsage } from "../../shared/maintenance/photos";
import { apiErrorOf, http } from "../lib/http";
import { useSession } from "../session/session";

/**
 * The workspace's photo storage on its preferences page, for everyone in it: "used / allowed" and
 * the upload rate (docs/decisions/0042; docs/operations.md "Limits you may meet"). Read from the server when the
 * page opens; offline it says so.
 */
export function PhotoStorage() {
  const workspaceId = useSession().workspace?.id;
  const [usage, setUsage] = useState<PhotoUsage | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!workspaceId) return;
    let live = true;
    http
      .get("photos/usage")
      .json<PhotoUsage>()
      .then((answer) => live && setUsage(answer))
      .catch(async (err: unknown) => {
        const message = (await apiErrorOf(err))?.message ?? "Shown when this device is online";
        if (live) setError(message);
      });
    return () => {
      live = false;
    };
  }, [workspaceId]);
  return (
    <section className="card section" aria-labelledby="photo-storage-heading">
      <h2 id="photo-storage-heading">Photo storage</h2>
      {usage ? (
        <>
          <p data-testid="photo-usage">
            {formatBytes(usage.usedBytes)} / {formatBytes(usage.allowedBytes)} used
          </p>
          <meter
            aria-label="Photo storage used"
            min={0}
            max={usage.allowedBytes}
            value={Math.min(usage.usedBytes, usage.allowedBytes)}
          />
          <p className="muted">
            Photos of issues, inspections and service. Each member may upload {usage.uploadsPerMinute} a minute; a photo
            no record names is deleted after a day.
          </p>
        </>
      ) : (
        <p className="muted">{error ?? "Loading…"}</p>
      )}
    </section>
  );
}
