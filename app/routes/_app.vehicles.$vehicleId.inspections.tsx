export default function VehicleInspections() {
  return <p className="muted">todo</p>;
}
