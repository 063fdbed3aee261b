// Reads a Proxmox VE cluster for the discover, before any transaction: /cluster/status and
// /cluster/resources (one call each: nodes, guests, storages), then each online node's network and each
// guest's config with at most HV_READ_CONCURRENCY calls in flight. A failure of the first two fails the
// run (PveError); a failed per-node or per-guest call is recorded and the rest goes on.
import { mapConcurrent } from "../../../each-concurrent.ts";
import type { HvSnapshot } from "./hv-snapshot.ts";
import type { PveGuestConfig, PveGuestType, PveNetworkIface } from "./pve-api.ts";
import { type PveClient, PveError } from "./pve-client.ts";

/** pveproxy serves a few workers; 8 keeps a big cluster's read short without queueing on them. */
export const HV_READ_CONCURRENCY = 8;

export async function readHvSnapshot(client: PveClient): Promise<HvSnapshot> {
  const [status, resources] = await Promise.all([client.clusterStatus(), client.clusterResources()]);
  const errors: string[] = [];
  const soft = (what: string, e: unknown) => {
    // An auth or TLS failure midway is not "one guest": it fails the run like the first calls.
    if (e instanceof PveError && (e.code === "auth" || e.code === "tls" || e.code === "refused")) throw e;
    errors.push(`${what}: ${e instanceof Error ? e.message : String(e)}`);
  };
  const online = resources.filter((r) => r.type === "node" && r.node && r.status === "online").map((r) => r.node!);
  const guests = resources.filter(
    (r) => (r.type === "qemu" || r.type === "lxc") && r.template !== 1 && r.node && r.vmid !== undefined && r.status !== "unknown",
  );
  const networks = new Map<string, PveNetworkIface[]>();
  const configs = new Map<string, PveGuestConfig>();
  const jobs: (() => Promise<void>)[] = [
    ...online.map((node) => async () => {
      try {
        networks.set(node, await client.network(node));
      } catch (e) {
        soft(`network of ${node}`, e);
      }
    }),
    ...guests.map((g) => async () => {
      try {
        configs.set(`${g.type}/${g.vmid}`, await client.guestConfig(g.node!, g.type as PveGuestType, g.vmid!));
      } catch (e) {
        soft(`config of ${g.type}/${g.vmid}`, e);
      }
    }),
  ];
  await mapConcurrent(jobs, HV_READ_CONCURRENCY, (job) => job());
  const clusterName = status.find((e) => e.type === "cluster")?.name ?? null;
  const nodeCount = resources.filter((r) => r.type === "node").length;
  return { clusterName, status, resources, configs, networks, networksPartial: networks.size < nodeCount, errors };
}
