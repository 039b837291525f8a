import { useNavigate } from "@remix-run/react";
import { useSession } from "../session/session";
import { useSwitchWorkspace } from "../session/workspace-actions";
import { Menu, MenuItem } from "./menu";

/** The map panel's workspace menu (SPEC.md section 2, Navigation). */
export function WorkspaceMenu() {
  const session = useSession();
  const navigate = useNavigate();
  const switchTo = useSwitchWorkspace();
  const name = session.workspace?.name ?? "Workspace";
  return (
    <Menu
      label="Workspace menu"
      align="left"
      trigger={
        <span className="workspace-trigger">
          <span className="avatar" aria-hidden>
            {name.charAt(0).toUpperCase()}
          </span>
          <span className="workspace-name">{name}</span>
        </span>
      }
    >
      <MenuItem onSelect={() => navigate("/workspace")}>Preferences</MenuItem>
      <MenuItem>Workspace settings</MenuItem>
      <MenuItem>Invite and manage members</MenuItem>
      <div className="menu-group" role="group" aria-label="Switch workspace">
        <div className="menu-heading">Switch workspace</div>
        <div className="menu-note">{session.viewer?.email}</div>
        {session.workspaces.map((w) => (
          <MenuItem key={w.id} onSelect={() => w.id !== session.workspace?.id && void switchTo(w.id)}>
            <span className="check" aria-hidden>
              {w.id === session.workspace?.id ? "✓" : ""}
            </span>
            {w.name}
            {w.id === session.workspace?.id ? <span className="sr-only"> (current)</span> : null}
          </MenuItem>
        ))}
        <MenuItem onSelect={() => navigate("/setup")}>New workspace</MenuItem>
      </div>
      <MenuItem onSelect={() => void session.signOut()}>Log out</MenuItem>
    </Menu>
  );
}
