import { Link } from "@remix-run/react";

export default function Privacy() {
  return (
    <main className="legal">
      <h1>Privacy Policy</h1>
      <p>
        We store your e-mail address, a salted hash of your password, and the data of your workspace: vehicles, the
        positions their beacons report, and the trips and stops derived from them. Positions are visible only to members
        of the workspace that ordered the beacon.
      </p>
      <p>We use your e-mail address only to sign you in and to send password reset links. We sell nothing to anyone.</p>
      <Link to="/login">Back to log in</Link>
    </main>
  );
}
