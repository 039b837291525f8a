export default function VehicleService() {
  return <p className="muted">todo</p>;
}
