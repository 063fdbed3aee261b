// The translated noun of each inventory group (groups.ts holds the English one other areas still show):
// `t(GROUP_NOUNS[group.key])` for one record ("New hardware node"), `t(GROUP_COUNTS[group.key], { count })`
// for a number of them ("3 hardware nodes"), each language with its own plural forms.
import { i18nKey } from "../i18n/i18n.ts";
import type { GroupKey } from "./types.ts";

export const GROUP_NOUNS: Record<GroupKey, string> = {
  hardware: i18nKey("inventory:noun.hardware"),
  compute: i18nKey("inventory:noun.compute"),
  services: i18nKey("inventory:noun.services"),
  networks: i18nKey("inventory:noun.networks"),
  storage: i18nKey("inventory:noun.storage"),
  clusters: i18nKey("inventory:noun.clusters"),
  external: i18nKey("inventory:noun.external"),
  misc: i18nKey("inventory:noun.misc"),
  sites: i18nKey("inventory:noun.sites"),
  vlans: i18nKey("inventory:noun.vlans"),
  ipam: i18nKey("inventory:noun.ipam"),
  environments: i18nKey("inventory:noun.environments"),
  categories: i18nKey("inventory:noun.categories"),
  racks: i18nKey("inventory:noun.racks"),
  prefixes: i18nKey("inventory:noun.prefixes"),
  vrfs: i18nKey("inventory:noun.vrfs"),
};

export const GROUP_COUNTS: Record<GroupKey, string> = {
  hardware: i18nKey("inventory:count.hardware"),
  compute: i18nKey("inventory:count.compute"),
  services: i18nKey("inventory:count.services"),
  networks: i18nKey("inventory:count.networks"),
  storage: i18nKey("inventory:count.storage"),
  clusters: i18nKey("inventory:count.clusters"),
  external: i18nKey("inventory:count.external"),
  misc: i18nKey("inventory:count.misc"),
  sites: i18nKey("inventory:count.sites"),
  vlans: i18nKey("inventory:count.vlans"),
  ipam: i18nKey("inventory:count.ipam"),
  environments: i18nKey("inventory:count.environments"),
  categories: i18nKey("inventory:count.categories"),
  racks: i18nKey("inventory:count.racks"),
  prefixes: i18nKey("inventory:count.prefixes"),
  vrfs: i18nKey("inventory:count.vrfs"),
};
