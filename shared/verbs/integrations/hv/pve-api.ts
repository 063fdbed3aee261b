// The Proxmox VE API's answers as this code reads them (PVE 8, /api2/json; the shapes of the API viewer,
// https://pve.proxmox.com/pve-docs/api-viewer/). Every answer is wrapped in `{ data }`; only the fields we use
// are typed, the rest passes through. Numbers the API sends as 0/1 stay numbers.

export interface PveVersion {
  version: string;
  release: string;
  repoid?: string;
}

/** GET /cluster/status: one `cluster` entry (absent on a single node without a cluster) and one per node. */
export interface PveClusterStatusEntry {
  type: "cluster" | "node";
  id: string;
  name: string;
  nodes?: number;
  quorate?: number;
  version?: number;
  nodeid?: number;
  ip?: string;
  online?: number;
  local?: number;
  level?: string;
}

/** GET /cluster/resources: nodes, guests, storages, SDN zones and pools in one list. */
export interface PveResource {
  id: string;
  type: "node" | "qemu" | "lxc" | "storage" | "sdn" | "pool" | string;
  node?: string;
  status?: string;
  name?: string;
  vmid?: number;
  template?: number;
  cpu?: number;
  maxcpu?: number;
  mem?: number;
  maxmem?: number;
  disk?: number;
  maxdisk?: number;
  uptime?: number;
  netin?: number;
  netout?: number;
  tags?: string;
  hastate?: string;
  storage?: string;
  plugintype?: string;
  content?: string;
  shared?: number;
  sdn?: string;
  level?: string;
}

/** GET /nodes */
export interface PveNode {
  node: string;
  status: string;
  cpu?: number;
  maxcpu?: number;
  mem?: number;
  maxmem?: number;
  disk?: number;
  maxdisk?: number;
  uptime?: number;
  level?: string;
  ssl_fingerprint?: string;
}

/** GET /nodes/{node}/qemu and /nodes/{node}/lxc */
export interface PveGuest {
  vmid: number;
  name?: string;
  status: string;
  template?: number;
  cpus?: number;
  cpu?: number;
  maxmem?: number;
  mem?: number;
  maxdisk?: number;
  disk?: number;
  uptime?: number;
  tags?: string;
}

/** GET /nodes/{node}/{qemu|lxc}/{vmid}/config: keys like cores, memory, net0, scsi0, rootfs, ipconfig0. */
export type PveGuestConfig = Record<string, string | number | undefined>;

/** GET /nodes/{node}/network */
export interface PveNetworkIface {
  iface: string;
  type: string;
  active?: number;
  autostart?: number;
  method?: string;
  cidr?: string;
  address?: string;
  netmask?: string;
  gateway?: string;
  bridge_ports?: string;
  bridge_vlan_aware?: number;
  comments?: string;
}

/** GET /nodes/{node}/storage */
export interface PveStorage {
  storage: string;
  type: string;
  content?: string;
  active?: number;
  enabled?: number;
  shared?: number;
  total?: number;
  used?: number;
  avail?: number;
  used_fraction?: number;
}

/** GET /nodes/{node}/rrddata?timeframe=hour&cf=AVERAGE */
export interface PveRrdPoint {
  time: number;
  cpu?: number;
  maxcpu?: number;
  mem?: number;
  maxmem?: number;
  netin?: number;
  netout?: number;
  loadavg?: number;
  iowait?: number;
  [key: string]: number | undefined;
}

/** GET /cluster/tasks */
export interface PveTask {
  upid: string;
  node: string;
  type: string;
  id?: string;
  user: string;
  status?: string;
  starttime: number;
  endtime?: number;
}

export type PveGuestType = "qemu" | "lxc";

export const PVE_GUEST_ACTIONS = ["start", "stop", "reboot", "shutdown", "reset", "suspend", "resume"] as const;
export type PveGuestAction = (typeof PVE_GUEST_ACTIONS)[number];
