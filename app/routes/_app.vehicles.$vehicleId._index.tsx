import { Navigate } from "@remix-run/react";

export default function VehicleIndex() {
  return <Navigate to="overview" replace />;
}
