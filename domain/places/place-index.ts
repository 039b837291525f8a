import Flatbush from "flatbush";
import type { PlaceGeometry } from "../../shared/places/places";
import { compilePlace, type CompiledPlace } from "./shape";

/**
 * A workspace's places behind a static R-tree (flatbush) of their bounding boxes, so a position
 * is tested exactly only against the few places whose box holds it: the cost of a fix grows with
 * log(places), not with their number. Built once per change of the workspace's places.
 * A box that runs past ±180° is indexed twice, once shifted by 360°, so queries stay in
 * [-180, 180].
 */
export class PlaceIndex {
  private readonly tree: Flatbush | null;
  private readonly entries: CompiledPlace[] = [];
  private readonly byId = new Map<string, CompiledPlace>();

  constructor(places: readonly { id: string; geometry: PlaceGeometry }[]) {
    const boxes: [CompiledPlace, number, number, number, number][] = [];
    for (const { id, geometry } of places) {
      const place = compilePlace(id, geometry);
      this.byId.set(id, place);
      const [minLon, minLat, maxLon, maxLat] = place.box;
      boxes.push([place, minLon, minLat, maxLon, maxLat]);
      if (maxLon > 180) boxes.push([place, minLon - 360, minLat, maxLon - 360, maxLat]);
      if (minLon < -180) boxes.push([place, minLon + 360, minLat, maxLon + 360, maxLat]);
    }
    if (boxes.length === 0) {
      this.tree = null;
      return;
    }
    this.tree = new Flatbush(boxes.length);
    for (const [place, ...box] of boxes) {
      this.tree.add(...box);
      this.entries.push(place);
    }
    this.tree.finish();
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): CompiledPlace | undefined {
    return this.byId.get(id);
  }

  /** Places whose box meets the given box (longitudes may run past ±180: both sides are asked). */
  search(minLon: number, minLat: number, maxLon: number, maxLat: number): Set<CompiledPlace> {
    const found = new Set<CompiledPlace>();
    if (!this.tree) return found;
    const ask = (a: number, b: number) => {
      for (const i of this.tree!.search(a, minLat, b, maxLat)) found.add(this.entries[i]!);
    };
    ask(minLon, maxLon);
    if (maxLon > 180) ask(minLon - 360, maxLon - 360);
    if (minLon < -180) ask(minLon + 360, maxLon + 360);
    return found;
  }
}
