import { Link } from "@remix-run/react";

export default function Terms() {
  return (
    <main className="legal">
      <h1>Terms of Service</h1>
      <p>
        Fleet Ops gives fleet operators a live view of their vehicles. You may use it for the vehicles your organisation
        operates, and you are responsible for the people you invite to your workspace and for having the right to track
        the vehicles you equip with beacons.
      </p>
      <p>
        We keep the service running with care but provide it as is. You can stop using it at any time; ask us and we
        delete your workspace and its data.
      </p>
      <Link to="/login">Back to log in</Link>
    </main>
  );
}
