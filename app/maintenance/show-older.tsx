import type { useOlder } from "./use-older";

/** "Show older" under a synced history until the older rows are read, and why they could not be (offline). */
export function ShowOlder({
  older,
}: {
  older: Pick<ReturnType<typeof useOlder>, "rows" | "loading" | "error" | "load">;
}) {
  return (
    <>
      {older.rows ? null : (
        <button type="button" className="button" onClick={() => void older.load()} disabled={older.loading}>
          Show older
        </button>
      )}
      {older.error ? <p className="muted">{older.error}</p> : null}
    </>
  );
}
