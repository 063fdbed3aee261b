// A fake Proxmox VE API (PVE 8, /api2/json) over HTTPS on a 127.0.0.x address, replaying the recorded
// answers of tests/fixtures/pve/ (a 3-node cluster "homelab": qemu VMs, lxc containers, a template,
// bridges, storages). It checks the `Authorization: PVEAPIToken=user@realm!tokenid=secret` header like the
// real API (401 otherwise). `state` is mutable (addGuest / changeGuest / removeGuest) so a test can make the
// cluster change between discover runs; `generatedPveState` builds a large cluster for the bench.
// The certificate (tests/fixtures/pve/tls-*.pem) is self-signed for pve.test and 127.0.44.1-12, so a client
// trusts it only with verify_ssl off or with the certificate given as its CA.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { join } from "node:path";
import type {
  PveClusterStatusEntry,
  PveGuestConfig,
  PveGuestType,
  PveNetworkIface,
  PveResource,
  PveRrdPoint,
  PveTask,
  PveVersion,
} from "../../shared/verbs/integrations/hv/pve-api.ts";

const FIXTURES = join(import.meta.dirname, "../fixtures/pve");
const fixture = <T>(name: string): T => JSON.parse(readFileSync(join(FIXTURES, name), "utf8")) as T;
const data = <T>(name: string): T => fixture<{ data: T }>(name).data;

export const FAKE_PVE_CERT = readFileSync(join(FIXTURES, "tls-cert.pem"), "utf8");
export const FAKE_PVE_KEY = readFileSync(join(FIXTURES, "tls-key.pem"), "utf8");
/** The token the fake accepts unless told otherwise (the reference's single string form). */
export const FAKE_PVE_TOKEN = "root@pam!inventory=6f1c3e2a-0b7d-4c59-9a1e-2d4f6a8b0c1e";

export interface FakePveState {
  version: PveVersion;
  /** null: a standalone node (no `cluster` entry in /cluster/status). */
  clusterName: string | null;
  /** node name → its cluster address. */
  nodeIps: Map<string, string>;
  /** /cluster/resources, the truth for nodes, guests and storages. */
  resources: PveResource[];
  /** "qemu/101" → its config. */
  configs: Map<string, PveGuestConfig>;
  /** node name → /nodes/{node}/network */
  networks: Map<string, PveNetworkIface[]>;
  rrd: Map<string, PveRrdPoint[]>;
  tasks: PveTask[];
}

export function recordedPveState(): FakePveState {
  const status = data<PveClusterStatusEntry[]>("cluster-status.json");
  const resources = data<PveResource[]>("cluster-resources.json");
  const nodes = resources.filter((r) => r.type === "node").map((r) => r.node!);
  return {
    version: data("version.json"),
    clusterName: status.find((e) => e.type === "cluster")?.name ?? null,
    nodeIps: new Map(status.filter((e) => e.type === "node").map((e) => [e.name, e.ip!])),
    resources,
    configs: new Map(Object.entries(fixture<Record<string, PveGuestConfig>>("guest-configs.json"))),
    networks: new Map(nodes.map((n) => [n, data<PveNetworkIface[]>(`network-${n}.json`)])),
    rrd: new Map([["pve1", data<PveRrdPoint[]>("rrddata-pve1.json")]]),
    tasks: data("cluster-tasks.json"),
  };
}

const GiB = 1024 ** 3;

/** A cluster of `nodes` nodes and `guests` guests (two thirds qemu, a third lxc), each with a config, a bridge per node and two storages. */
export function generatedPveState(opts: { nodes: number; guests: number }): FakePveState {
  const state: FakePveState = {
    version: { version: "8.2.4", release: "8.2", repoid: "faa83925c9641325" },
    clusterName: "bench",
    nodeIps: new Map(),
    resources: [],
    configs: new Map(),
    networks: new Map(),
    rrd: new Map(),
    tasks: [],
  };
  for (let n = 1; n <= opts.nodes; n++) {
    const node = `node${String(n).padStart(2, "0")}`;
    state.nodeIps.set(node, `10.50.0.${n}`);
    state.resources.push({
      id: `node/${node}`,
      type: "node",
      node,
      status: "online",
      cpu: 0.1,
      maxcpu: 32,
      mem: 64 * GiB,
      maxmem: 256 * GiB,
      disk: 20 * GiB,
      maxdisk: 200 * GiB,
      uptime: 86400,
    });
    state.resources.push({
      id: `storage/${node}/local`,
      type: "storage",
      storage: "local",
      node,
      status: "available",
      plugintype: "dir",
      content: "iso,backup",
      shared: 0,
      disk: 20 * GiB,
      maxdisk: 200 * GiB,
    });
    state.resources.push({
      id: `storage/${node}/local-lvm`,
      type: "storage",
      storage: "local-lvm",
      node,
      status: "available",
      plugintype: "lvmthin",
      content: "images,rootdir",
      shared: 0,
      disk: 500 * GiB,
      maxdisk: 2000 * GiB,
    });
    state.networks.set(node, [
      {
        iface: "vmbr0",
        type: "bridge",
        active: 1,
        method: "static",
        cidr: `10.50.0.${n}/16`,
        address: `10.50.0.${n}`,
        netmask: "16",
        gateway: "10.50.255.254",
        bridge_ports: "eno1",
      },
    ]);
  }
  for (let g = 0; g < opts.guests; g++) {
    const node = `node${String((g % opts.nodes) + 1).padStart(2, "0")}`;
    const vmid = 1000 + g;
    const type: PveGuestType = g % 3 === 2 ? "lxc" : "qemu";
    const ip = `10.50.${1 + Math.floor(g / 250)}.${1 + (g % 250)}`;
    const mac = `BC:24:11:${hex(g >> 16)}:${hex((g >> 8) & 255)}:${hex(g & 255)}`;
    state.resources.push({
      id: `${type}/${vmid}`,
      type,
      vmid,
      name: `guest-${vmid}`,
      node,
      status: g % 10 === 0 ? "stopped" : "running",
      template: 0,
      cpu: 0.01,
      maxcpu: 2,
      mem: GiB,
      maxmem: 2 * GiB,
      disk: 0,
      maxdisk: 16 * GiB,
      uptime: 3600,
    });
    state.configs.set(
      `${type}/${vmid}`,
      type === "qemu"
        ? {
            name: `guest-${vmid}`,
            cores: 2,
            memory: "2048",
            ostype: "l26",
            scsi0: `local-lvm:vm-${vmid}-disk-0,size=16G`,
            net0: `virtio=${mac},bridge=vmbr0`,
            ipconfig0: `ip=${ip}/16,gw=10.50.255.254`,
          }
        : {
            hostname: `guest-${vmid}`,
            cores: 2,
            memory: 2048,
            ostype: "debian",
            rootfs: `local-lvm:vm-${vmid}-disk-0,size=16G`,
            net0: `name=eth0,bridge=vmbr0,hwaddr=${mac},ip=${ip}/16,type=veth`,
          },
    );
  }
  return state;
}

const hex = (n: number) => n.toString(16).padStart(2, "0").toUpperCase();

export interface FakePve {
  /** https://127.0.0.x:port, as a provider config names it. */
  url: string;
  host: string;
  port: number;
  state: FakePveState;
  /** The token (user@realm!tokenid=secret) the fake accepts; a test may change it. */
  token: string;
  /** Added before every answer (a timeout test sets it above the client's timeout). */
  delayMs: number;
  /** "GET /api2/json/..." in the order asked. */
  requests: string[];
  /** The most requests answered at once (discover bounds its concurrency). */
  maxInFlight: number;
  /** POSTed guest actions, in order. */
  actions: { node: string; type: PveGuestType; vmid: number; action: string }[];
  addGuest(type: PveGuestType, resource: Omit<PveResource, "id" | "type">, config: PveGuestConfig): void;
  changeGuest(id: string, resource: Partial<PveResource>, config?: PveGuestConfig): void;
  removeGuest(id: string): void;
  close(): Promise<void>;
}

export async function startFakePve(options: { host?: string; state?: FakePveState; token?: string } = {}): Promise<FakePve> {
  const host = options.host ?? "127.0.44.1";
  const state = options.state ?? recordedPveState();
  let inFlight = 0;
  const fake: FakePve = {
    url: "",
    host,
    port: 0,
    state,
    token: options.token ?? FAKE_PVE_TOKEN,
    delayMs: 0,
    requests: [],
    maxInFlight: 0,
    actions: [],
    addGuest(type, resource, config) {
      state.resources.push({ ...resource, id: `${type}/${resource.vmid}`, type });
      state.configs.set(`${type}/${resource.vmid}`, config);
    },
    changeGuest(id, resource, config) {
      const r = state.resources.find((x) => x.id === id);
      if (!r) throw new Error(`fake-pve: no guest ${id}`);
      Object.assign(r, resource);
      if (config) state.configs.set(id, { ...state.configs.get(id), ...config });
    },
    removeGuest(id) {
      state.resources = state.resources.filter((x) => x.id !== id);
      state.configs.delete(id);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const answer = (method: string, path: string, query: URLSearchParams): [number, unknown] => {
    const guests = (node: string, type: PveGuestType) => state.resources.filter((r) => r.type === type && r.node === node);
    const nodeRes = (node: string) => state.resources.find((r) => r.type === "node" && r.node === node);
    if (method === "GET") {
      if (path === "/version") return [200, state.version];
      if (path === "/cluster/resources") {
        const type = query.get("type");
        const kinds = type === "vm" ? ["qemu", "lxc"] : type ? [type] : null;
        return [200, kinds ? state.resources.filter((r) => kinds.includes(r.type)) : state.resources];
      }
      if (path === "/cluster/status") {
        const nodes = state.resources.filter((r) => r.type === "node");
        const entries: PveClusterStatusEntry[] = nodes.map((r, i) => ({
          type: "node",
          id: `node/${r.node}`,
          name: r.node!,
          nodeid: i + 1,
          ip: state.nodeIps.get(r.node!) ?? "",
          online: r.status === "online" ? 1 : 0,
          local: i === 0 ? 1 : 0,
          level: "",
        }));
        if (state.clusterName)
          entries.unshift({ type: "cluster", id: "cluster", name: state.clusterName, nodes: nodes.length, quorate: 1, version: 5 });
        return [200, entries];
      }
      if (path === "/cluster/tasks") return [200, state.tasks];
      if (path === "/nodes") {
        return [
          200,
          state.resources
            .filter((r) => r.type === "node")
            .map((r) => ({
              node: r.node,
              status: r.status,
              cpu: r.cpu,
              maxcpu: r.maxcpu,
              mem: r.mem,
              maxmem: r.maxmem,
              disk: r.disk,
              maxdisk: r.maxdisk,
              uptime: r.uptime,
              level: "",
              id: r.id,
              type: "node",
            })),
        ];
      }
      const nodePath = /^\/nodes\/([^/]+)(\/.*)?$/.exec(path);
      if (nodePath) {
        const node = decodeURIComponent(nodePath[1]!);
        const rest = nodePath[2] ?? "";
        if (!nodeRes(node)) return [500, `hostname lookup '${node}' failed - failed to get address info for: ${node}`];
        const list = /^\/(qemu|lxc)$/.exec(rest);
        if (list)
          return [
            200,
            guests(node, list[1] as PveGuestType).map((r) => ({
              vmid: r.vmid,
              name: r.name,
              status: r.status,
              template: r.template,
              cpus: r.maxcpu,
              cpu: r.cpu,
              maxmem: r.maxmem,
              mem: r.mem,
              maxdisk: r.maxdisk,
              disk: r.disk,
              uptime: r.uptime,
              tags: r.tags,
            })),
          ];
        const config = /^\/(qemu|lxc)\/(\d+)\/config$/.exec(rest);
        if (config) {
          const id = `${config[1]}/${config[2]}`;
          const owned = state.resources.some((r) => r.id === id && r.node === node);
          const c = state.configs.get(id);
          return owned && c
            ? [200, c]
            : [500, `Configuration file 'nodes/${node}/${config[1] === "qemu" ? "qemu-server" : "lxc"}/${config[2]}.conf' does not exist`];
        }
        if (rest === "/network") return [200, state.networks.get(node) ?? []];
        if (rest === "/storage") {
          return [
            200,
            state.resources
              .filter((r) => r.type === "storage" && r.node === node)
              .map((r) => ({
                storage: r.storage,
                type: r.plugintype,
                content: r.content,
                active: 1,
                enabled: 1,
                shared: r.shared,
                total: r.maxdisk,
                used: r.disk,
                avail: (r.maxdisk ?? 0) - (r.disk ?? 0),
                used_fraction: r.maxdisk ? (r.disk ?? 0) / r.maxdisk : 0,
              })),
          ];
        }
        if (rest === "/rrddata")
          return query.get("timeframe")
            ? [200, state.rrd.get(node) ?? []]
            : [400, "parameter verification failed: timeframe: property is missing and it is not optional"];
        if (rest === "/status")
          return [
            200,
            {
              uptime: nodeRes(node)!.uptime,
              cpu: nodeRes(node)!.cpu,
              pveversion: `pve-manager/${state.version.version}/${state.version.repoid}`,
            },
          ];
      }
    }
    if (method === "POST") {
      const action = /^\/nodes\/([^/]+)\/(qemu|lxc)\/(\d+)\/status\/([a-z]+)$/.exec(path);
      if (action) {
        const [, node, type, vmid, verb] = action as unknown as [string, string, PveGuestType, string, string];
        const r = state.resources.find((x) => x.id === `${type}/${vmid}` && x.node === node);
        if (!r) return [500, `Configuration file 'nodes/${node}/${type === "qemu" ? "qemu-server" : "lxc"}/${vmid}.conf' does not exist`];
        const allowed =
          type === "qemu"
            ? ["start", "stop", "reboot", "shutdown", "reset", "suspend", "resume"]
            : ["start", "stop", "reboot", "shutdown", "suspend", "resume"];
        if (!allowed.includes(verb)) return [501, `Method 'POST /nodes/${node}/${type}/${vmid}/status/${verb}' not implemented`];
        fake.actions.push({ node, type, vmid: Number(vmid), action: verb });
        r.status = { start: "running", stop: "stopped", shutdown: "stopped", suspend: "paused", resume: "running" }[verb] ?? r.status;
        const upid = `UPID:${node}:0000${vmid}:00000000:6744F2A0:${type === "qemu" ? "qm" : "vz"}${verb}:${vmid}:${fake.token.split("!")[0]}:`;
        return [200, upid];
      }
    }
    return [501, `Method '${method} ${path}' not implemented`];
  };

  const server: Server = createServer({ key: FAKE_PVE_KEY, cert: FAKE_PVE_CERT }, (req, res) => {
    const url = new URL(req.url ?? "/", "https://pve");
    const method = req.method ?? "GET";
    fake.requests.push(`${method} ${url.pathname}`);
    inFlight++;
    fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
    // Answered or abandoned by the client (a timeout): either way no longer in flight.
    res.once("close", () => inFlight--);
    const send = (status: number, body: unknown) => {
      if (res.destroyed) return;
      // The real API puts its error text in the status line and answers `{ data: null }` (or `{ errors }`).
      const reason = status >= 400 && typeof body === "string" ? body : undefined;
      res.writeHead(status, reason ?? (status === 200 ? "OK" : "Error"), { "content-type": "application/json;charset=UTF-8" });
      res.end(JSON.stringify(status === 200 ? { data: body } : { data: null, ...(reason ? { message: `${reason}\n` } : {}) }));
    };
    const go = () => {
      if (req.headers.authorization !== `PVEAPIToken=${fake.token}`) return send(401, "no tokenid specified");
      if (!url.pathname.startsWith("/api2/json/")) return send(501, `Method '${method} ${url.pathname}' not implemented`);
      const [status, body] = answer(method, url.pathname.slice("/api2/json".length), url.searchParams);
      send(status, body);
    };
    req.resume();
    req.on("end", () => (fake.delayMs > 0 ? setTimeout(go, fake.delayMs) : go()));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  fake.port = (server.address() as { port: number }).port;
  fake.url = `https://${host}:${fake.port}`;
  return fake;
}
