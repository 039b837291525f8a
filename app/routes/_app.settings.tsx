import { useState } from "react";
import { AccountData } from "../account/account-data";
import { ActiveSessions } from "../account/active-sessions";
import { ChangePasswordForm } from "../account/change-password-form";
import { TwoFactorSettings } from "../account/two-factor-settings";
import { Spinner } from "../components/spinner";
import { http } from "../lib/http";
import { useSession } from "../session/session";
import { OnlineOnly } from "../components/online-only";
import { PushSettings } from "../push/push-settings";

/**
 * Account settings, reached from the top bar menu's Settings. Security: where the account is
 * signed in, with a sign-out per sign-in; a password change proven by the current password;
 * two-factor authentication (app codes, recovery codes); the account's data to download, and its
 * deletion; and
 * "Sign out everywhere", which ends every session of the account on every device (POST
 * api/signout/everywhere), their open live-update sockets included, then signs this browser out.
 */
function Settings() {
  const session = useSession();
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);

  const signOutEverywhere = async () => {
    setPending(true);
    setFailed(false);
    try {
      await http.post("signout/everywhere", { retry: 0 });
      await session.signOut(); // this browser's token is already revoked: it only forgets it
    } catch {
      setFailed(true);
      setPending(false);
    }
  };

  return (
    <section className="page">
      <h1>Settings</h1>
      <PushSettings />
      <h2>Security</h2>
      <p className="muted">Signed in as {session.viewer?.email}.</p>
      <ActiveSessions />
      <p className="muted">Lost a device, or signed in on a shared computer? End every session of your account.</p>
      {failed ? (
        <div className="alert" role="alert">
          Could not sign out everywhere. Check your connection and try again.
        </div>
      ) : null}
      <button type="button" className="button" onClick={() => void signOutEverywhere()} disabled={pending}>
        {pending ? <Spinner /> : null} Sign out everywhere
      </button>
      <ChangePasswordForm />
      <TwoFactorSettings />
      <AccountData />
    </section>
  );
}

/** Only the server has this page's data: offline it says it needs a connection (docs/decisions/0044). */
export default function SettingsRoute() {
  return (
    <OnlineOnly heading="Settings">
      <Settings />
    </OnlineOnly>
  );
}
