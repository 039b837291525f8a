import { Link } from "@remix-run/react";
import { WorkOrderList } from "../work-orders/work-order-list";

export const meta = () => [{ title: "Work orders" }];

/** Work orders (issue 55): by status, vehicle, assignee and vendor; from the synced store, so offline too. */
export default function WorkOrdersPage() {
  return (
    <section className="page">
      <header className="page-header">
        <h1>Work orders</h1>
        <Link to="/parts" className="button">
          Parts and vendors
        </Link>
      </header>
      <WorkOrderList />
    </section>
  );
}
