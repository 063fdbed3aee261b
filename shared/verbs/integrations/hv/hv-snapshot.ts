// What one read of a Proxmox VE cluster saw (read before the discover's transaction; hv-read.ts).
import type { PveClusterStatusEntry, PveGuestConfig, PveNetworkIface, PveResource } from "./pve-api.ts";

export interface HvSnapshot {
  clusterName: string | null;
  status: PveClusterStatusEntry[];
  /** /cluster/resources: nodes, guests, storages. */
  resources: PveResource[];
  /** "qemu/101" → config; a guest whose config could not be read is absent (its config-derived fields are left as they are). */
  configs: Map<string, PveGuestConfig>;
  /** node → interfaces; a node whose network could not be read (or that is offline) is absent. */
  networks: Map<string, PveNetworkIface[]>;
  /** True when some online node's network was not read: bridges missing from it must not count as vanished. */
  networksPartial: boolean;
  /** Per-call failures that did not stop the run (a guest config, a node's network). */
  errors: string[];
}
