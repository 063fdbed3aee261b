// The screens of one status page, as tabs under its title: each is a sub-route of /status-pages/<id>
// (routes.tsx). Another screen of the page (its incidents, say) is one more entry here and in routes.tsx.
import { Link } from "../router.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

export const PAGE_TABS = [
  { sub: "", label: i18nKey("status-pages:tabs.page") },
  { sub: "incidents", label: i18nKey("status-pages:tabs.incidents") },
  { sub: "subscribers", label: i18nKey("status-pages:tabs.subscribers") },
] as const;

export function PageTabs({ id, current }: { id: string; current: string }) {
  const t = useT();
  // One screen needs no tabs.
  if (PAGE_TABS.length < 2) return null;
  return (
    <nav class="tabs" aria-label={t("status-pages:tabs.label")}>
      {PAGE_TABS.map((tab) => {
        const href = `/status-pages/${id}${tab.sub ? `/${tab.sub}` : ""}`;
        return (
          <Link key={tab.sub} href={href} aria-current={tab.sub === current ? "page" : undefined}>
            {t(tab.label)}
          </Link>
        );
      })}
    </nav>
  );
}
