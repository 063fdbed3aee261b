// What a Proxmox VE snapshot means for the inventory, computed without the database: a hardware row per
// node, a compute unit per guest (qemu → vm, lxc → container; templates skipped), a network per bridge
// name across the cluster (vmbr0 on every node is one LAN), storage per node (a shared store once).
// Each row carries the external id the discover keys it by (external_refs source `hv:<config id>`).
// Values are rounded (GiB to 0.1) so usage jitter below that does not rewrite rows on every run.
import { formatCidr } from "../../../domain/cidr-math.ts";
import { parseCidr, parseIp } from "../../../net/cidr.ts";
import type { PveGuestConfig } from "./pve-api.ts";
import type { HvSnapshot } from "./hv-snapshot.ts";

export type HvEntityType = "hardware" | "compute_unit" | "network" | "storage";

export interface HvRow {
  external_id: string;
  values: Record<string, unknown>;
  attributes: Record<string, unknown>;
}

export interface HvComputeRow extends HvRow {
  /** The node's external id (its hardware row). */
  node: string;
  /** Bridges the guest is on with its address there; null when its config was not read (memberships untouched). */
  bridges: { bridge: string; ip: string | null }[] | null;
}

export interface HvNetworkRow extends HvRow {
  /** node external id → the node's address on the bridge. */
  nodes: { node: string; ip: string | null }[];
}

export interface HvStorageRow extends HvRow {
  node: string | null;
}

export interface HvInventory {
  hardware: HvRow[];
  compute: HvComputeRow[];
  networks: HvNetworkRow[];
  storage: HvStorageRow[];
  counts: { nodes: number; vms: number; cts: number; networks: number; storage: number };
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const gib = (bytes: number | undefined) => (bytes ? Math.round((bytes / GiB) * 10) / 10 : null);
export const nodeExternalId = (node: string) => `node/${node}`;
export const bridgeExternalId = (bridge: string) => `bridge/${bridge}`;

/** "virtio=BC:..,bridge=vmbr0,firewall=1" → { virtio: "BC:..", bridge: "vmbr0", firewall: "1" }. */
export function parsePveKv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(",")) {
    const eq = part.indexOf("=");
    if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

/** "192.168.1.5/24" → "192.168.1.5"; dhcp, manual or garbage → null. */
const addressOf = (cidr: string | undefined) => (cidr && parseIp(cidr.split("/")[0]!) ? cidr.split("/")[0]! : null);

const MAC = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/i;

/** A guest's NICs from its config: qemu netN (model=MAC,bridge=) with ipconfigN, lxc netN (hwaddr=, bridge=, ip=). */
function guestNics(type: string, config: PveGuestConfig): { bridge: string | null; mac: string | null; ip: string | null }[] {
  const nics = [];
  for (const key of Object.keys(config)
    .filter((k) => /^net\d+$/.test(k))
    .sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)))) {
    const kv = parsePveKv(String(config[key]));
    const index = key.slice(3);
    if (type === "qemu") {
      const mac = Object.values(kv).find((v) => MAC.test(v)) ?? null;
      const ipconfig = config[`ipconfig${index}`];
      nics.push({
        bridge: kv.bridge ?? null,
        mac: mac?.toLowerCase() ?? null,
        ip: ipconfig ? addressOf(parsePveKv(String(ipconfig)).ip) : null,
      });
    } else {
      nics.push({ bridge: kv.bridge ?? null, mac: kv.hwaddr?.toLowerCase() ?? null, ip: addressOf(kv.ip) });
    }
  }
  return nics;
}

const guestStatus = (s: string | undefined) =>
  s === "running" || s === "stopped" || s === "paused" ? s : s === "suspended" ? "paused" : "unknown";

function storageKind(plugin: string | undefined): "disk" | "pool" | "dataset" | "share" {
  if (["nfs", "cifs", "cephfs", "glusterfs", "pbs"].includes(plugin ?? "")) return "share";
  if (["zfspool", "zfs", "lvm", "lvmthin", "rbd", "iscsi", "iscsidirect"].includes(plugin ?? "")) return "pool";
  return "dataset";
}

export function hvInventory(snap: HvSnapshot): HvInventory {
  const nodeIps = new Map(snap.status.filter((e) => e.type === "node").map((e) => [e.name, e.ip ?? null]));
  const nodes = snap.resources.filter((r) => r.type === "node" && r.node);
  const hardware: HvRow[] = nodes.map((r) => ({
    external_id: nodeExternalId(r.node!),
    values: {
      name: r.node!,
      role: "hypervisor",
      ip_address: nodeIps.get(r.node!) ?? null,
      memory_gb: gib(r.maxmem),
      status: r.status === "online" ? "up" : "down",
    },
    attributes: { node: r.node!, cluster: snap.clusterName, maxcpu: r.maxcpu ?? null },
  }));

  const compute: HvComputeRow[] = [];
  const counts = { nodes: hardware.length, vms: 0, cts: 0, networks: 0, storage: 0 };
  for (const r of snap.resources) {
    if ((r.type !== "qemu" && r.type !== "lxc") || r.template === 1 || r.vmid === undefined || !r.node) continue;
    if (r.type === "qemu") counts.vms++;
    else counts.cts++;
    const config = snap.configs.get(`${r.type}/${r.vmid}`);
    const nics = config ? guestNics(r.type, config) : null;
    const values: Record<string, unknown> = {
      name: r.name || `${r.type}-${r.vmid}`,
      kind: r.type === "qemu" ? "vm" : "container",
      cpu_cores: r.maxcpu ?? null,
      memory_mb: r.maxmem ? Math.round(r.maxmem / MiB) : null,
      disk_gb: gib(r.maxdisk),
      status: guestStatus(r.status),
    };
    // Config-derived fields only when the config was read: a failed read leaves what the row holds.
    if (config) {
      values.ip_address = nics!.find((n) => n.ip)?.ip ?? null;
      values.os = config.ostype === undefined ? null : String(config.ostype);
    }
    compute.push({
      external_id: `${r.type}/${r.vmid}`,
      node: nodeExternalId(r.node),
      values,
      attributes: {
        vmid: r.vmid,
        type: r.type,
        node: r.node,
        tags: r.tags ? r.tags.split(/[;,]/).filter(Boolean).sort() : [],
        ...(nics ? { macs: nics.map((n) => n.mac).filter(Boolean) } : {}),
      },
      bridges: nics ? dedupe(nics.filter((n) => n.bridge).map((n) => ({ bridge: n.bridge!, ip: n.ip }))) : null,
    });
  }

  const bridges = new Map<string, HvNetworkRow>();
  for (const [node, ifaces] of [...snap.networks.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    for (const i of ifaces) {
      if (i.type !== "bridge" && i.type !== "OVSBridge") continue;
      const cidr = i.cidr ? parseCidr(i.cidr) : undefined;
      let row = bridges.get(i.iface);
      if (!row) {
        row = {
          external_id: bridgeExternalId(i.iface),
          values: { name: snap.clusterName ? `${i.iface} (${snap.clusterName})` : i.iface, cidr: null, gateway: null },
          attributes: { bridge: i.iface, vlan_aware: false, nodes: [] },
          nodes: [],
        };
        bridges.set(i.iface, row);
      }
      // The first node (by name) with an address on the bridge names its range.
      if (row.values.cidr === null && cidr) {
        row.values.cidr = formatCidr(cidr);
        row.values.gateway = i.gateway ?? null;
      }
      if (i.bridge_vlan_aware) row.attributes.vlan_aware = true;
      (row.attributes.nodes as string[]).push(node);
      row.nodes.push({ node: nodeExternalId(node), ip: addressOf(i.cidr) ?? i.address ?? null });
    }
  }
  const networks = [...bridges.values()];
  counts.networks = networks.length;

  const storage: HvStorageRow[] = [];
  const shared = new Set<string>();
  for (const r of snap.resources) {
    if (r.type !== "storage" || !r.storage || !r.node) continue;
    if (r.shared === 1) {
      if (shared.has(r.storage)) continue;
      shared.add(r.storage);
    }
    storage.push({
      external_id: r.shared === 1 ? `storage/${r.storage}` : `storage/${r.node}/${r.storage}`,
      node: r.shared === 1 ? null : nodeExternalId(r.node),
      values: {
        name: r.shared === 1 ? r.storage : `${r.storage} (${r.node})`,
        kind: storageKind(r.plugintype),
        capacity_gb: gib(r.maxdisk),
        used_gb: gib(r.disk),
      },
      attributes: { storage: r.storage, plugintype: r.plugintype ?? null, content: r.content ?? null, shared: r.shared === 1 },
    });
  }
  counts.storage = storage.length;
  return { hardware, compute, networks, storage, counts };
}

function dedupe(list: { bridge: string; ip: string | null }[]) {
  const out = new Map<string, { bridge: string; ip: string | null }>();
  for (const b of list) if (!out.has(b.bridge) || (!out.get(b.bridge)!.ip && b.ip)) out.set(b.bridge, b);
  return [...out.values()];
}
