import { useState } from "react";
import { toast } from "sonner";
import { useSession } from "../session/session";
import { addPhoto, PhotoRejected, usePhotoUrl } from "./photos";

/** A photo as a small square, from this device while it waits for upload, else from the server. */
export function PhotoThumb({ id }: { id: string }) {
  const url = usePhotoUrl(id);
  if (!url) return <span className="photo-thumb missing" role="img" aria-label="Photo not available yet" />;
  return (
    <a href={url} target="_blank" rel="noreferrer" className="photo-thumb">
      <img src={url} alt="Photo" />
    </a>
  );
}

export function PhotoStrip({ ids }: { ids: readonly string[] }) {
  if (ids.length === 0) return null;
  return (
    <div className="photo-strip">
      {ids.map((id) => (
        <PhotoThumb key={id} id={id} />
      ))}
    </div>
  );
}

/**
 * "Add photo": the phone's camera or a file. Each photo is kept on the device and given its id at
 * once (app/photos), so the form can be saved offline; it uploads when the network returns.
 */
export function PhotoPicker({
  ids,
  onChange,
  label = "Add photo",
}: {
  ids: string[];
  onChange: (ids: string[]) => void;
  label?: string;
}) {
  const session = useSession();
  const workspaceId = session.workspace?.id;
  const userId = session.viewer?.id;
  const [busy, setBusy] = useState(false);
  const pick = async (files: FileList | null) => {
    if (!files?.length || !workspaceId || !userId) return;
    setBusy(true);
    const added: string[] = [];
    for (const file of Array.from(files)) {
      try {
        added.push(await addPhoto(file, workspaceId, userId));
      } catch (error) {
        toast.error(error instanceof PhotoRejected ? error.message : "Could not keep the photo on this device");
      }
    }
    setBusy(false);
    onChange([...ids, ...added]);
  };
  return (
    <div className="field">
      <PhotoStrip ids={ids} />
      <label className="button photo-button">
        {busy ? "Adding…" : label}
        <input
          type="file"
          accept="image/jpeg,image/png,image/webp"
          capture="environment"
          multiple
          className="sr-only"
          onChange={(e) => void pick(e.target.files)}
        />
      </label>
    </div>
  );
}
