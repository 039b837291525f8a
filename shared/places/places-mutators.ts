import type { WriteTransaction } from "replicache";
import {
  createPlaceArgs,
  decodePlace,
  deletePlaceArgs,
  encodePlace,
  placeKey,
  updatePlaceArgs,
  type CreatePlaceArgs,
  type PlaceWire,
  type UpdatePlaceArgs,
} from "./places";
import { placeTable } from "./place-fields";

/**
 * Places drawn in /locations, optimistic in the browser (offline too) and applied by the Worker
 * (worker/sync/places-mutators.ts) with the same schemas. The browser chooses the id (a UUID) so
 * an offline-created place can be renamed or reshaped before it ever reaches the server.
 */
export const placeMutators = {
  async createPlace(tx: WriteTransaction, input: CreatePlaceArgs) {
    const { id, geometry, ...fields } = createPlaceArgs.parse(input);
    await tx.set(placeKey(id), encodePlace({ ...placeTable.given(fields), geometry }));
  },
  async updatePlace(tx: WriteTransaction, input: UpdatePlaceArgs) {
    const { id, geometry, ...changes } = updatePlaceArgs.parse(input);
    const current = (await tx.get(placeKey(id))) as PlaceWire | undefined;
    if (!current) return;
    const place = decodePlace(id, current);
    await tx.set(
      placeKey(id),
      encodePlace({ ...placeTable.patched(place, changes), geometry: geometry ?? place.geometry }),
    );
  },
  async deletePlace(tx: WriteTransaction, input: { id: string }) {
    await tx.del(placeKey(deletePlaceArgs.parse(input).id));
  },
};
