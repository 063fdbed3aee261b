// The two discovery screens, scans (/discovery) and profiles (/discovery/profiles), as a row of tabs.
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";

const TABS = [
  { href: "/discovery", label: i18nKey("discovery:tabs.scans") },
  { href: "/discovery/profiles", label: i18nKey("discovery:tabs.profiles") },
] as const;

export function DiscoveryTabs({ current }: { current: (typeof TABS)[number]["href"] }) {
  const t = useT();
  return (
    <nav class="tabs" aria-label={t("discovery:tabs.label")}>
      {TABS.map((tab) => (
        <Link key={tab.href} href={tab.href} aria-current={tab.href === current ? "page" : undefined}>
          {t(tab.label)}
        </Link>
      ))}
    </nav>
  );
}
