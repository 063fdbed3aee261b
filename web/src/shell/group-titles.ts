// The translated title of each inventory group (inventory/groups.ts holds the English one the code
// keys on): `t(GROUP_TITLES[group.key])`. The navigation and the search show these; so may any screen.
import { i18nKey } from "../i18n/i18n.ts";
import type { GroupKey } from "../inventory/types.ts";

export const GROUP_TITLES: Record<GroupKey, string> = {
  hardware: i18nKey("common:group.hardware"),
  compute: i18nKey("common:group.compute"),
  services: i18nKey("common:group.services"),
  networks: i18nKey("common:group.networks"),
  storage: i18nKey("common:group.storage"),
  clusters: i18nKey("common:group.clusters"),
  external: i18nKey("common:group.external"),
  misc: i18nKey("common:group.misc"),
  sites: i18nKey("common:group.sites"),
  vlans: i18nKey("common:group.vlans"),
  ipam: i18nKey("common:group.ipam"),
  environments: i18nKey("common:group.environments"),
  categories: i18nKey("common:group.categories"),
  racks: i18nKey("common:group.racks"),
  prefixes: i18nKey("common:group.prefixes"),
  vrfs: i18nKey("common:group.vrfs"),
};
