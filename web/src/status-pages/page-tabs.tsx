// The screens of one status page, as tabs under its title: each is a sub-route of /status-pages/<id>
// (routes.tsx). Another screen of the page (its incidents, say) is one more entry here and in routes.tsx.
import { Link } from "../router.tsx";

export const PAGE_TABS = [
  { sub: "", label: "Page and sections" },
  { sub: "incidents", label: "Incidents" },
  { sub: "subscribers", label: "Subscribers" },
] as const;

export function PageTabs({ id, current }: { id: string; current: string }) {
  // One screen needs no tabs.
  if (PAGE_TABS.length < 2) return null;
  return (
    <nav class="tabs" aria-label="Status page screens">
      {PAGE_TABS.map((t) => {
        const href = `/status-pages/${id}${t.sub ? `/${t.sub}` : ""}`;
        return (
          <Link key={t.sub} href={href} aria-current={t.sub === current ? "page" : undefined}>
            {t.label}
          </Link>
        );
      })}
    </nav>
  );
}
