// The status pages' screens by path: the list, a new page, and each page's screens (page-tabs.tsx), so a
// further screen of a page is added here and there without touching the app's router.
import type { JSX } from "preact";
import { match } from "../router.tsx";
import { IncidentDetail } from "./incident-detail.tsx";
import { IncidentsList } from "./incidents-list.tsx";
import { PageEditor } from "./page-editor.tsx";
import { PagesList } from "./pages-list.tsx";
import { SubscribersList } from "./subscribers-list.tsx";

export function statusPagesScreen(path: string): JSX.Element | undefined {
  if (path === "/status-pages") return <PagesList />;
  if (path === "/status-pages/new") return <PageEditor key="new" />;
  const inc = match("/status-pages/:id/incidents/:incident", path);
  if (inc) return <IncidentDetail key={`${inc.id}/${inc.incident}`} pageId={inc.id!} id={inc.incident!} />;
  const incs = match("/status-pages/:id/incidents", path);
  if (incs) return <IncidentsList key={incs.id} pageId={incs.id!} />;
  const subs = match("/status-pages/:id/subscribers", path);
  if (subs) return <SubscribersList key={subs.id} pageId={subs.id!} />;
  const m = match("/status-pages/:id", path);
  if (m) return <PageEditor key={m.id} id={m.id} />;
  return undefined;
}
