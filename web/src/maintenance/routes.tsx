// The maintenance windows' screens by path: the list, a new window, and one window's form.
import type { JSX } from "preact";
import { match } from "../router.tsx";
import { WindowForm } from "./window-form.tsx";
import { WindowsPage } from "./windows-page.tsx";

export function maintenanceScreen(path: string): JSX.Element | undefined {
  if (path === "/maintenance") return <WindowsPage />;
  if (path === "/maintenance/new") return <WindowForm key="new" />;
  const m = match("/maintenance/:id", path);
  if (m) return <WindowForm key={m.id} id={m.id} />;
  return undefined;
}
