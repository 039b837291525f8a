import { Link, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useSession } from "../session/session";
import { NavSections, useNavSections } from "./nav-items";

/**
 * The navigation on a phone (below 640 px, where the side navigation is hidden): a "Menu" button
 * in the top bar opens a drawer that carries the side navigation's sections (the same list, with
 * their counts), the map, and the workspace and account pages. A native modal <dialog>: focus
 * moves in and is held there, Escape and the backdrop close it, focus returns to the button; no
 * new dependency (docs/decisions/0031).
 */
export function PhoneMenu() {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const { pathname } = useLocation();
  const sections = useNavSections();
  const session = useSession();
  const unread = sections.flatMap((s) => s.items).reduce((sum, item) => sum + (item.badge ?? 0), 0);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  // A link followed inside the drawer closes it (also when the page is the same one).
  useEffect(() => setOpen(false), [pathname]);
  const close = () => setOpen(false);

  return (
    <>
      <button
        type="button"
        className="phone-menu-button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-label={unread ? `Menu, ${unread} new` : "Menu"}
        onClick={() => setOpen(true)}
      >
        <span className="burger" aria-hidden />
        {unread ? (
          <span className="badge dot" aria-hidden>
            {unread}
          </span>
        ) : null}
      </button>
      <dialog
        ref={dialog}
        className="phone-drawer"
        aria-label="Navigation menu"
        onClose={close}
        // A click on the backdrop lands on the dialog itself: close, as a tap outside a sheet does.
        onClick={(event) => event.target === dialog.current && close()}
      >
        <div className="phone-drawer-head">
          <span className="brand-link">{session.workspace?.name ?? "Fleet Ops"}</span>
          <button type="button" className="button icon" onClick={close} aria-label="Close menu">
            ✕
          </button>
        </div>
        <nav aria-label="Pages" className="phone-drawer-nav">
          <NavSections sections={sections} idPrefix="drawer-group" onNavigate={close} />
          <AccountLinks close={close} signOut={() => void session.signOut()} />
        </nav>
      </dialog>
    </>
  );
}

/** What the top bar's account and workspace menus lead to, in the drawer: the map, Team, Preferences, Settings, Log out. */
function AccountLinks({ close, signOut }: { close: () => void; signOut: () => void }) {
  return (
    <div role="group" aria-labelledby="drawer-group-account" className="side-section">
      <div className="side-group" id="drawer-group-account">
        Account
      </div>
      {[
        ["/map", "Map"],
        ["/team", "Team"],
        ["/workspace", "Preferences"],
        ["/settings", "Settings"],
      ].map(([to, label]) => (
        <Link key={to} to={to!} className="side-link" onClick={close}>
          {label}
        </Link>
      ))}
      <button type="button" className="side-link link-like" onClick={signOut}>
        Log out
      </button>
    </div>
  );
}
