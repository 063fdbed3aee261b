// The two discovery screens, scans (/discovery) and profiles (/discovery/profiles), as a row of tabs.
import { Link } from "../router.tsx";

const TABS = [
  { href: "/discovery", label: "Scans" },
  { href: "/discovery/profiles", label: "Profiles" },
] as const;

export function DiscoveryTabs({ current }: { current: (typeof TABS)[number]["href"] }) {
  return (
    <nav class="tabs" aria-label="Discovery sections">
      {TABS.map((t) => (
        <Link key={t.href} href={t.href} aria-current={t.href === current ? "page" : undefined}>
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
