import { NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import { useUnreadCount } from "../store/places-alerts";
import { useActionCount } from "../maintenance/use-my-actions";
import { useLinkPrefetch } from "./use-link-prefetch";

/** One destination of the navigation; `badge` is a count shown beside it (nothing when 0 or null). */
export type NavItem = { to: string; label: string; badge?: number | null; badgeNoun?: string };
export type NavSection = { group: string | null; items: NavItem[] };

/**
 * The one list of the app's sections: the side navigation (wide screens) and the phone menu both
 * render it, so a page or a count added here shows in both (docs/decisions/0031).
 */
export function useNavSections(): NavSection[] {
  const unread = useUnreadCount();
  const myActions = useActionCount();
  return [
    {
      group: null,
      items: [
        { to: "/overview", label: "Overview" },
        { to: "/inbox", label: "Inbox", badge: unread, badgeNoun: "unread" },
        { to: "/actions", label: "My actions", badge: myActions, badgeNoun: "to do" },
        { to: "/my-day", label: "My day" },
      ],
    },
    {
      group: "Workspace",
      items: [
        { to: "/vehicles", label: "Vehicles" },
        { to: "/jobs", label: "Jobs" },
        { to: "/issues", label: "Issues" },
        { to: "/work-orders", label: "Work orders" },
        { to: "/inspections", label: "Inspections" },
        { to: "/fuel", label: "Fuel" },
        { to: "/reports", label: "Reports" },
      ],
    },
    {
      group: "Team",
      items: [
        { to: "/people", label: "People" },
        { to: "/locations", label: "Locations" },
      ],
    },
  ];
}

/** The sections as links, grouped under their labels; `onNavigate` lets the phone menu close. */
export function NavSections({
  sections,
  idPrefix,
  onNavigate,
}: {
  sections: NavSection[];
  idPrefix: string;
  onNavigate?: () => void;
}) {
  return (
    <>
      {sections.map((section) =>
        section.group ? (
          <NavGroup key={section.group} label={section.group} id={`${idPrefix}-${section.group.toLowerCase()}`}>
            {section.items.map((item) => (
              <NavItemLink key={item.to} item={item} onNavigate={onNavigate} />
            ))}
          </NavGroup>
        ) : (
          section.items.map((item) => <NavItemLink key={item.to} item={item} onNavigate={onNavigate} />)
        ),
      )}
    </>
  );
}

function NavItemLink({ item, onNavigate }: { item: NavItem; onNavigate?: () => void }) {
  const { to, label, badge, badgeNoun } = item;
  const prefetch = useLinkPrefetch();
  return (
    <NavLink
      to={to}
      prefetch={prefetch}
      className="side-link"
      onClick={onNavigate}
      aria-label={badge ? `${label}, ${badge} ${badgeNoun ?? ""}`.trim() : undefined}
    >
      {label}
      {badge ? (
        <span className="badge" aria-hidden>
          {badge}
        </span>
      ) : null}
    </NavLink>
  );
}

/** A labelled group of the navigation. */
function NavGroup({ label, id, children }: { label: string; id: string; children: ReactNode }) {
  return (
    <div role="group" aria-labelledby={id} className="side-section">
      <div className="side-group" id={id}>
        {label}
      </div>
      {children}
    </div>
  );
}
