import { encodeDriver, type DriverWire } from "../../shared/fleet/driver";
import { encodeTelemetry, type TelemetryWire } from "../../shared/fleet/telemetry";
import { encodeVehicle, type VehicleWire } from "../../shared/fleet/vehicle";
import { vehicleTable } from "../../shared/fleet/vehicle-fields";
import { encodeVehicleEvent, type VehicleEventWire } from "../../shared/fleet/vehicle-event";
import type { drivers, telemetry, vehicleEvents, vehicles } from "../../db/schema";

/**
 * D1 rows to the compact values the pull sends and the client store keeps (shared/*.ts define
 * them and their decoding; docs/decisions/0013): ids only in the keys, no nulls, rounded floats.
 */
export function toVehicle(row: typeof vehicles.$inferSelect): VehicleWire {
  return encodeVehicle({
    ...vehicleTable.valuesOf(row),
    driver: row.driver,
    driverId: row.driverId,
    classification: row.classification ? { value: row.classification } : null,
    status: row.status,
    beaconStatus: row.beaconStatus,
    fuelTankLitres: row.fuelTankLitres,
  });
}

export function toDriver(row: typeof drivers.$inferSelect): DriverWire {
  return encodeDriver({ name: row.name, email: row.email, phone: row.phone });
}

export function toTelemetry(row: typeof telemetry.$inferSelect): TelemetryWire {
  return encodeTelemetry({
    status: row.status as TelemetryWire["s"],
    statusTimestamp: row.statusTimestamp,
    speed: row.speed,
    odometer: row.odometer,
    fuel: row.fuel,
    latitude: row.latitude,
    longitude: row.longitude,
    heading: row.heading,
    recordedAt: row.recordedAt,
  });
}

export function toVehicleEvent(row: typeof vehicleEvents.$inferSelect): VehicleEventWire {
  return encodeVehicleEvent({
    type: row.type as VehicleEventWire["k"],
    startTime: row.startTime,
    endTime: row.endTime,
    location:
      row.latitude === null || row.longitude === null
        ? null
        : {
            latitude: row.latitude,
            longitude: row.longitude,
            streetNumber: row.streetNumber,
            street: row.street,
            city: row.city,
            state: row.state,
            postalCode: row.postalCode,
          },
    distance: row.distance,
    averageSpeed: row.averageSpeed,
    fuelFrom: row.fuelFrom,
    fuelTo: row.fuelTo,
  });
}
