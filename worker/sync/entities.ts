import type { Telemetry } from "../../shared/telemetry";
import type { Vehicle } from "../../shared/vehicle";
import type { VehicleEvent } from "../../shared/vehicle-event";
import type { telemetry, vehicleEvents, vehicles } from "../db/schema";

/** D1 rows to the values the client store holds (shared/*.ts describe them). */
export function toVehicle(row: typeof vehicles.$inferSelect): Vehicle {
  return {
    id: row.id,
    name: row.name,
    year: row.year,
    make: row.make,
    model: row.model,
    vin: row.vin,
    driver: row.driver,
    classification: row.classification ? { value: row.classification } : null,
    status: row.status,
    beaconStatus: row.beaconStatus,
  };
}

export function toTelemetry(row: typeof telemetry.$inferSelect): Telemetry {
  return {
    id: row.id,
    vehicleId: row.vehicleId,
    status: row.status as Telemetry["status"],
    statusTimestamp: row.statusTimestamp,
    speed: row.speed,
    odometer: row.odometer,
    fuel: row.fuel,
    latitude: row.latitude,
    longitude: row.longitude,
    heading: row.heading,
    recordedAt: row.recordedAt,
  };
}

export function toVehicleEvent(row: typeof vehicleEvents.$inferSelect): VehicleEvent {
  return {
    id: row.id,
    vehicleId: row.vehicleId,
    type: row.type as VehicleEvent["type"],
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
  };
}
