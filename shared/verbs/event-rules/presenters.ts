// Each event kind's API shape, for writes made outside the resource verbs that still send their changes
// (the inventory import: ../transfer/import-inventory.ts). The engine's own writes carry their kind's
// `present` themselves (../resources/update-row.ts), so the engine never imports this file.
import type { EventKind } from "../../domain/event-rules.ts";
import type { Db } from "../../db/database.ts";
import { clusterVerbs } from "../inventory/clusters/def.ts";
import { computeUnitVerbs } from "../inventory/compute-units/def.ts";
import { externalNodeVerbs } from "../inventory/external-nodes/def.ts";
import { hardwareVerbs } from "../inventory/hardware/def.ts";
import { ipamVerbs } from "../inventory/ipam/def.ts";
import { categoryVerbs, environmentVerbs } from "../inventory/labels/def.ts";
import { miscVerbs } from "../inventory/misc/def.ts";
import { networkVerbs } from "../inventory/networks/def.ts";
import { serviceVerbs } from "../inventory/services/def.ts";
import { siteVerbs } from "../inventory/sites/def.ts";
import { storageVerbs } from "../inventory/storage/def.ts";
import { vlanVerbs } from "../inventory/vlans/def.ts";

export const PRESENTERS: Record<EventKind, { present(db: Db, rows: never[]): Promise<unknown[]> }> = {
  hardware: hardwareVerbs,
  service: serviceVerbs,
  compute_unit: computeUnitVerbs,
  storage: storageVerbs,
  network: networkVerbs,
  vlan: vlanVerbs,
  ip_address: ipamVerbs,
  site: siteVerbs,
  cluster: clusterVerbs,
  external_node: externalNodeVerbs,
  misc: miscVerbs,
  environment: environmentVerbs,
  category: categoryVerbs,
};
