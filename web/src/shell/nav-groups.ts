// The console's navigation: four groups of screens, each screen with its icon (lucide, one set for the
// whole console). A screen is added by adding its entry here; an inventory group gets its entry from
// inventory/groups.ts and needs only an icon below (the Record makes a missing one a type error).
import {
  Activity,
  AppWindow,
  Bell,
  BellRing,
  Binary,
  Bot,
  Boxes,
  Cloud,
  Columns3,
  Cpu,
  Globe,
  HardDrive,
  Hash,
  KeyRound,
  Layers,
  LayoutDashboard,
  type LucideIcon,
  MapPin,
  Network,
  Package,
  Radar,
  Route,
  ScanSearch,
  Send,
  Server,
  Settings,
  Share2,
  SlidersHorizontal,
  Split,
  Tags,
  Trees,
  Users,
  Webhook,
  Wrench,
} from "lucide-preact";
import { i18nKey } from "../i18n/i18n.ts";
import { GROUPS } from "../inventory/groups.ts";
import type { GroupKey } from "../inventory/types.ts";
import { GROUP_TITLES } from "./group-titles.ts";

export interface NavItem {
  href: string;
  /** A catalogue key: side-nav.tsx translates it. */
  label: string;
  Icon: LucideIcon;
}

export interface NavGroup {
  key: string;
  /** A catalogue key. */
  label: string;
  Icon: LucideIcon;
  items: NavItem[];
}

const INVENTORY_ICONS: Record<GroupKey, LucideIcon> = {
  hardware: Server,
  compute: Cpu,
  services: AppWindow,
  networks: Network,
  storage: HardDrive,
  clusters: Layers,
  external: Cloud,
  misc: Package,
  sites: MapPin,
  vlans: Split,
  ipam: Hash,
  environments: Trees,
  categories: Tags,
  racks: Columns3,
  prefixes: Binary,
  vrfs: Route,
};

export const NAV_GROUPS: readonly NavGroup[] = [
  {
    key: "monitoring",
    label: i18nKey("shell:nav.monitoring"),
    Icon: Activity,
    items: [
      { href: "/", label: i18nKey("shell:nav.overview"), Icon: LayoutDashboard },
      { href: "/alerts", label: i18nKey("shell:nav.alerts"), Icon: Bell },
      { href: "/alert-rules", label: i18nKey("shell:nav.alertRules"), Icon: BellRing },
      { href: "/maintenance", label: i18nKey("shell:nav.maintenance"), Icon: Wrench },
      { href: "/status-pages", label: i18nKey("shell:nav.statusPages"), Icon: Globe },
    ],
  },
  {
    key: "inventory",
    label: i18nKey("shell:nav.inventory"),
    Icon: Boxes,
    items: [
      ...Object.values(GROUPS).map((g) => ({ href: `/inventory/${g.key}`, label: GROUP_TITLES[g.key], Icon: INVENTORY_ICONS[g.key] })),
      { href: "/topology", label: i18nKey("shell:nav.topology"), Icon: Share2 },
    ],
  },
  {
    key: "discovery",
    label: i18nKey("shell:nav.discovery"),
    Icon: Radar,
    items: [
      { href: "/discovery", label: i18nKey("shell:nav.discovery"), Icon: ScanSearch },
      { href: "/agents", label: i18nKey("shell:nav.agents"), Icon: Bot },
    ],
  },
  {
    key: "settings",
    label: i18nKey("shell:nav.settings"),
    Icon: Settings,
    items: [
      { href: "/settings/notifications", label: i18nKey("shell:nav.notifications"), Icon: Send },
      { href: "/event-rules", label: i18nKey("shell:nav.eventRules"), Icon: Webhook },
      { href: "/settings/users", label: i18nKey("shell:nav.users"), Icon: Users },
      { href: "/settings/tokens", label: i18nKey("shell:nav.tokens"), Icon: KeyRound },
      { href: "/settings", label: i18nKey("shell:nav.allSettings"), Icon: SlidersHorizontal },
    ],
  },
];

/** The item a path belongs to: the one whose href is the longest prefix of it ("/" only for "/" itself). */
export function currentItem(path: string): string | undefined {
  let best: string | undefined;
  for (const g of NAV_GROUPS)
    for (const { href } of g.items) {
      const matches = href === "/" ? path === "/" || path === "" : path === href || path.startsWith(`${href}/`);
      if (matches && (!best || href.length > best.length)) best = href;
    }
  return best;
}
