// What the CSV import (POST {list}/import.csv, docs/adr/0497) needs to know of each inventory kind besides
// its schemas: the reference fields a column may give by name (`site` for site_id) and the unique field
// that finds the record to update when a row has no id. Keyed by the kind's entity type.
import {
  categories,
  computeUnits,
  environments,
  hardware,
  hardwareClusters,
  ipAddresses,
  networks,
  racks,
  services,
  sites,
  vlans,
  vrfs,
} from "../../db/schema/index.ts";
import type { CsvImportSpec, CsvReference } from "../resources/import-csv.ts";

const SITE: CsvReference = { table: sites, id: sites.id, name: sites.name, label: "Site" };
const ENVIRONMENT: CsvReference = { table: environments, id: environments.id, name: environments.name, label: "Environment" };
const CATEGORY: CsvReference = { table: categories, id: categories.id, name: categories.name, label: "Category" };
const RACK: CsvReference = { table: racks, id: racks.id, name: racks.name, label: "Rack" };
const HARDWARE: CsvReference = { table: hardware, id: hardware.id, name: hardware.name, label: "Hardware node" };
const COMPUTE: CsvReference = { table: computeUnits, id: computeUnits.id, name: computeUnits.name, label: "Compute unit" };
const NETWORK: CsvReference = { table: networks, id: networks.id, name: networks.name, label: "Network" };
const VRF: CsvReference = { table: vrfs, id: vrfs.id, name: vrfs.name, label: "VRF" };
const VLAN: CsvReference = { table: vlans, id: vlans.id, name: vlans.name, label: "VLAN" };

type KindImport = Pick<CsvImportSpec, "references" | "key">;

export const CSV_IMPORT_KINDS: Record<string, KindImport> = {
  hardware: { references: { site_id: SITE, environment_id: ENVIRONMENT, rack_id: RACK } },
  compute_unit: { references: { hardware_id: HARDWARE, environment_id: ENVIRONMENT } },
  service: {
    references: { environment_id: ENVIRONMENT, hardware_id: HARDWARE, compute_id: COMPUTE, category_id: CATEGORY },
    key: { field: "slug", column: services.slug },
  },
  network: { references: { site_id: SITE } },
  storage: { references: { hardware_id: HARDWARE } },
  cluster: { references: { environment_id: ENVIRONMENT }, key: { field: "name", column: hardwareClusters.name } },
  external_node: { references: {} },
  misc: { references: {} },
  site: { references: {}, key: { field: "name", column: sites.name } },
  vlan: { references: { site_id: SITE } },
  ip_address: { references: { network_id: NETWORK }, key: { field: "address", column: ipAddresses.address } },
  environment: { references: {}, key: { field: "name", column: environments.name } },
  category: { references: {}, key: { field: "name", column: categories.name } },
  rack: { references: { site_id: SITE } },
  prefix: { references: { vrf_id: VRF, site_id: SITE, vlan_id: VLAN } },
  vrf: { references: {}, key: { field: "name", column: vrfs.name } },
};

/** A kind's import facts; a kind not listed imports with ids only. */
export const csvImportOf = (entityType: string): KindImport => CSV_IMPORT_KINDS[entityType] ?? { references: {} };
