import { useSession } from "../session/session";
import { useSwitchWorkspace } from "../session/workspace-actions";
import { Menu, MenuGroup, MenuItem, MenuNote } from "./menu";

/** The map panel's workspace menu (docs/product.md section 2, Navigation). */
export function WorkspaceMenu() {
  const session = useSession();
  const switchTo = useSwitchWorkspace();
  const name = session.workspace?.name ?? "Workspace";
  return (
    <Menu
      label="Workspace menu"
      align="start"
      trigger={
        <span className="workspace-trigger">
          <span className="avatar" aria-hidden>
            {name.charAt(0).toUpperCase()}
          </span>
          <span className="workspace-name">{name}</span>
        </span>
      }
    >
      <MenuItem to="/workspace">Preferences</MenuItem>
      <MenuItem>Workspace settings</MenuItem>
      <MenuItem to="/team">Invite and manage members</MenuItem>
      <MenuGroup label="Switch workspace">
        <MenuNote>{session.viewer?.email}</MenuNote>
        {session.workspaces.map((w) => (
          <MenuItem key={w.id} onSelect={() => w.id !== session.workspace?.id && void switchTo(w.id)}>
            <span className="check" aria-hidden>
              {w.id === session.workspace?.id ? "✓" : ""}
            </span>
            {w.name}
            {w.id === session.workspace?.id ? <span className="sr-only"> (current)</span> : null}
          </MenuItem>
        ))}
        <MenuItem to="/setup">New workspace</MenuItem>
      </MenuGroup>
      <MenuItem onSelect={() => void session.signOut()}>Log out</MenuItem>
    </Menu>
  );
}
