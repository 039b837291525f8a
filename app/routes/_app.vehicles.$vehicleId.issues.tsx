export default function VehicleIssues() {
  return <p className="muted">todo</p>;
}
