import { useRouteLoaderData } from "@remix-run/react";
import { lazy, Suspense, useState, type FormEvent } from "react";
import { placeGeometrySchema, type Place, type PlaceGeometry } from "../../shared/places/places";
import { placeTable } from "../../shared/places/place-fields";
import { parseTypedGeometry } from "../map/place-shapes";
import type { loader as rootLoader } from "../root";
import { usePlaceMutations, usePlaces } from "../store/places-alerts";
import type { DrawMode } from "../map/draw-layer";
import { ConfirmAction, ErrorLine, InputField, Submit, TextAreaField } from "../components/form";

const LocationsMap = lazy(() => import("../map/locations-map").then((m) => ({ default: m.LocationsMap })));

/**
 * Places (geofences): listed, drawn on the map (a circle: press its centre and drag to its edge, or
 * click both; a polygon: click its corners, click the first or double-click to close), or typed as
 * coordinates; renamed (each field of the place table, in its row), reshaped (drawn again) and
 * deleted. Edits go through sync mutators: instant, and kept offline.
 */
export default function LocationsPage() {
  const token = useRouteLoaderData<typeof rootLoader>("root")?.mapboxToken ?? "";
  const places = usePlaces();
  const [selected, setSelected] = useState<string | null>(null);
  const { drawing, drawError, setDrawing, save } = usePlaceDrawing(places.length, setSelected);

  return (
    <section className="page locations">
      <LocationsHeader drawing={drawing} setDrawing={setDrawing} />
      <ErrorLine message={drawing ? drawError : null} />
      <div className="locations-body">
        <div className="locations-side">
          <ul className="place-list" aria-label="Places">
            {places.map((place) => (
              <PlaceRow
                key={place.id}
                place={place}
                selected={place.id === selected}
                onSelect={() => setSelected(place.id)}
                onReshape={(mode) => setDrawing({ mode, placeId: place.id })}
              />
            ))}
          </ul>
          {places.length === 0 ? (
            <p className="muted">No places yet: draw one on the map or type its coordinates.</p>
          ) : null}
          <TypedPlaceForm onSave={(g) => save(g, null)} />
        </div>
        <div className="locations-map">
          <Suspense fallback={null}>
            <LocationsMap
              token={token}
              selectedId={selected}
              drawing={drawing?.mode ?? null}
              attempt={drawing?.attempt ?? 0}
              onDrawn={(g) => void save(g, drawing?.placeId ?? null)}
              onCancel={() => setDrawing(null)}
            />
          </Suspense>
        </div>
      </div>
    </section>
  );
}

/** The page's title, its two drawing buttons, and what to do while drawing. */
function LocationsHeader({
  drawing,
  setDrawing,
}: {
  drawing: Drawing | null;
  setDrawing: (next: Omit<Drawing, "attempt"> | null) => void;
}) {
  const drawingNew = (mode: DrawMode) => drawing?.mode === mode && !drawing.placeId;
  return (
    <>
      <header className="page-header">
        <h1>Locations</h1>
        <div className="actions">
          <button
            type="button"
            className="button"
            aria-pressed={drawingNew("circle")}
            onClick={() => setDrawing({ mode: "circle", placeId: null })}
          >
            Draw circle
          </button>
          <button
            type="button"
            className="button"
            aria-pressed={drawingNew("polygon")}
            onClick={() => setDrawing({ mode: "polygon", placeId: null })}
          >
            Draw polygon
          </button>
        </div>
      </header>
      {drawing ? (
        <p className="muted draw-hint">
          {drawing.mode === "circle"
            ? "Press the centre and drag to the edge (or click the centre, then the edge)."
            : "Click each corner; click the first corner or double-click to finish."}{" "}
          Escape cancels.
        </p>
      ) : null}
    </>
  );
}

/** What a finished drawing is for: a new place, or reshaping one; `attempt` restarts a refused drawing. */
interface Drawing {
  mode: DrawMode;
  placeId: string | null;
  attempt: number;
}

/**
 * The drawing in progress and what becomes of it: a shape the shared schema accepts is saved (a new
 * place, selected, or the reshaped one); a refused one (its edges cross…) says why and starts again.
 */
function usePlaceDrawing(placeCount: number, select: (id: string) => void) {
  const mutations = usePlaceMutations();
  const [drawing, setDrawingState] = useState<Drawing | null>(null);
  const [drawError, setDrawError] = useState<string | null>(null);
  const setDrawing = (next: Omit<Drawing, "attempt"> | null) => {
    setDrawError(null);
    setDrawingState(next && { ...next, attempt: 0 });
  };
  const save = async (geometry: PlaceGeometry, placeId: string | null) => {
    const checked = placeGeometrySchema.safeParse(geometry);
    if (!checked.success) {
      setDrawError(`${checked.error.issues[0]?.message ?? "That shape cannot be a place"}: draw it again.`);
      return setDrawingState((d) => d && { ...d, attempt: d.attempt + 1 });
    }
    if (placeId) await mutations.update({ id: placeId, geometry: checked.data });
    else {
      const id = crypto.randomUUID();
      await mutations.create({ id, name: `Place ${placeCount + 1}`, geometry: checked.data });
      select(id);
    }
    setDrawing(null);
  };
  return { drawing, drawError, setDrawing, save };
}

function PlaceRow({
  place,
  selected,
  onSelect,
  onReshape,
}: {
  place: Place;
  selected: boolean;
  onSelect: () => void;
  onReshape: (mode: DrawMode) => void;
}) {
  const mutations = usePlaceMutations();
  return (
    <li className={selected ? "selected" : undefined}>
      {placeTable.formFields.map((field) => (
        <PlaceFieldInput key={field.name} field={field} place={place} onFocus={onSelect} />
      ))}
      <span className="muted">
        {place.geometry.type === "Circle"
          ? `circle, ${place.geometry.radius} m`
          : `${place.geometry.coordinates[0]!.length} corners`}
      </span>
      <button
        type="button"
        className="link-button"
        onClick={() => onReshape(place.geometry.type === "Circle" ? "circle" : "polygon")}
        aria-label={`Reshape ${place.name}`}
      >
        Reshape
      </button>
      <ConfirmAction
        label="Delete"
        className="link-button"
        ariaLabel={`Delete ${place.name}`}
        question={`Delete ${place.name}?`}
        confirmLabel="Delete place"
        onConfirm={() => mutations.remove(place.id)}
      />
    </li>
  );
}

/**
 * One of a place's table fields (shared/places/place-fields.ts, the name today) edited in its row:
 * kept when the input is left (or on Enter), read back as the mutator takes it (trimmed, empty as
 * none); a required field left empty goes back to what the place has.
 */
function PlaceFieldInput({
  field,
  place,
  onFocus,
}: {
  field: (typeof placeTable.formFields)[number];
  place: Place;
  onFocus: () => void;
}) {
  const mutations = usePlaceMutations();
  const kept = place[field.name];
  const [text, setText] = useState(kept === null ? "" : String(kept));
  const keep = () => {
    const value = placeTable.fromText({ [field.name]: text }, [field.name])[field.name];
    if (value === null && field.required) return setText(String(kept));
    if (value !== kept) void mutations.update({ id: place.id, [field.name]: value });
  };
  const { name: _name, id: _id, label, type, scale: _scale, required: _required, ...input } = field;
  return (
    <input
      className="input"
      aria-label={label}
      type={type === "textarea" ? "text" : type}
      value={text}
      onFocus={onFocus}
      onChange={(e) => setText(e.target.value)}
      onBlur={keep}
      onKeyDown={(e) => e.key === "Enter" && e.currentTarget.blur()}
      {...input}
    />
  );
}

function TypedPlaceForm({ onSave }: { onSave: (g: PlaceGeometry) => Promise<void> }) {
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const formElement = e.currentTarget;
    const form = new FormData(formElement);
    const radius = Number(form.get("radius")) || null;
    const parsed = parseTypedGeometry(String(form.get("coordinates") ?? ""), radius);
    if (typeof parsed === "string") return setError(parsed);
    const checked = placeGeometrySchema.safeParse(parsed);
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? "That shape cannot be a place");
    setError(null);
    await onSave(checked.data);
    formElement.reset();
  };
  return (
    <form className="typed-place form-stack" onSubmit={(e) => void submit(e)} aria-label="Type coordinates">
      <TextAreaField
        id="typed-place-coordinates"
        label="Coordinates (latitude, longitude; one per line)"
        hint="One point and a radius make a circle; three or more points, a polygon."
        name="coordinates"
        rows={3}
        placeholder={"41.8781, -87.6298"}
      />
      <InputField
        id="typed-place-radius"
        label="Radius (m, for one point)"
        name="radius"
        type="number"
        min={1}
        max={100000}
      />
      <ErrorLine message={error} />
      <div className="form-actions">
        <Submit>Add place</Submit>
      </div>
    </form>
  );
}
