import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * A menu button (WAI-ARIA): the trigger carries aria-haspopup and aria-expanded, the arrow keys
 * move between items, Escape closes and returns focus to the trigger. Radix does all of it.
 */
export function Menu({
  label,
  trigger,
  children,
  align = "end",
}: {
  label: string;
  trigger: ReactNode;
  children: ReactNode;
  align?: "start" | "end";
}) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="menu-trigger" aria-label={label}>
        {trigger}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu-items" align={align} sideOffset={6}>
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** An item that does something (`onSelect`) or goes somewhere in the app (`to`, client-side). */
export function MenuItem({ children, onSelect, to }: { children: ReactNode; onSelect?: () => void; to?: string }) {
  if (to) {
    return (
      <DropdownMenu.Item className="menu-item" asChild>
        <Link to={to}>{children}</Link>
      </DropdownMenu.Item>
    );
  }
  return (
    <DropdownMenu.Item className="menu-item" onSelect={onSelect}>
      {children}
    </DropdownMenu.Item>
  );
}

export function MenuGroup({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DropdownMenu.Group className="menu-group" aria-label={label}>
      <DropdownMenu.Label className="menu-heading">{label}</DropdownMenu.Label>
      {children}
    </DropdownMenu.Group>
  );
}

export function MenuNote({ children }: { children: ReactNode }) {
  return <DropdownMenu.Label className="menu-note">{children}</DropdownMenu.Label>;
}
