// The console's navigation: four groups of screens, each screen with its icon (lucide, one set for the
// whole console). A screen is added by adding its entry here; an inventory group gets its entry from
// inventory/groups.ts and needs only an icon below (the Record makes a missing one a type error).
import {
  Activity,
  AppWindow,
  Bell,
  BellRing,
  Bot,
  Boxes,
  Cloud,
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
  Wrench,
} from "lucide-preact";
import { GROUPS } from "../inventory/groups.ts";
import type { GroupKey } from "../inventory/types.ts";

export interface NavItem {
  href: string;
  label: string;
  Icon: LucideIcon;
}

export interface NavGroup {
  key: string;
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
};

export const NAV_GROUPS: readonly NavGroup[] = [
  {
    key: "monitoring",
    label: "Monitoring",
    Icon: Activity,
    items: [
      { href: "/", label: "Overview", Icon: LayoutDashboard },
      { href: "/alerts", label: "Alerts", Icon: Bell },
      { href: "/alert-rules", label: "Alert rules", Icon: BellRing },
      { href: "/maintenance", label: "Maintenance", Icon: Wrench },
      { href: "/status-pages", label: "Status pages", Icon: Globe },
    ],
  },
  {
    key: "inventory",
    label: "Inventory",
    Icon: Boxes,
    items: [
      ...Object.values(GROUPS).map((g) => ({ href: `/inventory/${g.key}`, label: g.title, Icon: INVENTORY_ICONS[g.key] })),
      { href: "/topology", label: "Topology", Icon: Share2 },
    ],
  },
  {
    key: "discovery",
    label: "Discovery",
    Icon: Radar,
    items: [
      { href: "/discovery", label: "Discovery", Icon: ScanSearch },
      { href: "/agents", label: "Agents", Icon: Bot },
    ],
  },
  {
    key: "settings",
    label: "Settings",
    Icon: Settings,
    items: [
      { href: "/settings/notifications", label: "Notifications", Icon: Send },
      { href: "/settings/users", label: "Users and roles", Icon: Users },
      { href: "/settings/tokens", label: "API tokens", Icon: KeyRound },
      { href: "/settings", label: "All settings", Icon: SlidersHorizontal },
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
