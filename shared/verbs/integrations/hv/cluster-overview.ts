// GET /integrations/hv/cluster-overview (spec/catalogue.tsv, group hypervisor integration): quorum, nodes, guests, problems,
// an hour of per-node time series and the storages, from one cluster read; cached 90 s per config.
//
// The cache is PER PROCESS (a Map in this module): each API process asks Proxmox at most once per 90 s
// for each config, so N processes ask at most N times. The answer is read-only and the same for every
// caller, so a shared store would only save those few reads; it is keyed by the config's id and
// updated_at, so a changed config (URL, token) misses it at once.
import type { PveClusterStatusEntry, PveResource, PveRrdPoint, PveTask } from "./pve-api.ts";
import type { Clock } from "../../../clock.ts";
import { defineRead } from "../../verb.ts";
import { READ_INTEGRATIONS } from "../scopes.ts";
import { findConfig } from "../providers/read-configs.ts";
import { HV_NOT_FOUND } from "../providers/write-configs.ts";
import { ApiError } from "../../../errors.ts";
import { hvDepsOf, openHvApi } from "./hv-connection.ts";
import { PveError } from "./pve-client.ts";

export const OVERVIEW_TTL_MS = 90_000;
/** Bounds the cache: configs are few, but the map must not grow without end. */
const MAX_ENTRIES = 256;

const GiB = 1024 ** 3;
const round2 = (n: number) => Math.round(n * 100) / 100;

export interface ClusterOverview {
  cluster: { name: string | null; quorum: boolean; nodes_online: number; nodes_total: number; vms: number; lxcs: number; uptime: number };
  problems: { time: number; severity: string; host: string; problem: string; status: string }[];
  time_series: { cpu: Series; memory: Series; network_in: Series; network_out: Series };
  storage: { name: string; used_gb: number; total_gb: number; content: string }[];
}
type Series = Record<string, { time: number; value: number }[]>;

const cache = new Map<string, { at: number; value: ClusterOverview }>();

/** What a storage above this fraction used is reported as. */
const STORAGE_WARN = 0.9;

/** The overview from the cluster's answers (pure). */
export function buildOverview(
  status: PveClusterStatusEntry[],
  resources: PveResource[],
  tasks: PveTask[],
  rrd: Map<string, PveRrdPoint[]>,
  nowS: number,
): ClusterOverview {
  const cluster = status.find((e) => e.type === "cluster");
  const nodes = resources.filter((r) => r.type === "node");
  const guests = resources.filter((r) => (r.type === "qemu" || r.type === "lxc") && !r.template);
  const problems: ClusterOverview["problems"] = [];
  for (const n of nodes)
    if (n.status !== "online")
      problems.push({ time: nowS, severity: "high", host: n.node ?? n.id, problem: "Node is offline", status: "PROBLEM" });
  if (cluster && cluster.quorate !== 1)
    problems.push({ time: nowS, severity: "disaster", host: cluster.name, problem: "Cluster has lost quorum", status: "PROBLEM" });
  const storages = new Map<string, PveResource>();
  for (const r of resources) {
    if (r.type !== "storage" || !r.storage) continue;
    // A shared storage appears once per node; the overview lists it once.
    const key = r.shared ? r.storage : `${r.node}/${r.storage}`;
    if (!storages.has(key)) storages.set(key, r);
  }
  for (const s of storages.values()) {
    const used = s.maxdisk ? (s.disk ?? 0) / s.maxdisk : 0;
    if (used >= STORAGE_WARN)
      problems.push({
        time: nowS,
        severity: "warning",
        host: s.node ?? "cluster",
        problem: `Storage ${s.storage} is ${Math.round(used * 100)}% full`,
        status: "PROBLEM",
      });
  }
  for (const t of tasks) {
    if (t.endtime && t.status && t.status !== "OK")
      problems.push({
        time: t.endtime,
        severity: "average",
        host: t.node,
        problem: `Task ${t.type}${t.id ? ` ${t.id}` : ""} failed: ${t.status}`,
        status: "PROBLEM",
      });
  }
  const series: ClusterOverview["time_series"] = { cpu: {}, memory: {}, network_in: {}, network_out: {} };
  for (const [node, points] of rrd) {
    const at = (pick: (p: PveRrdPoint) => number | undefined) =>
      points.flatMap((p) => {
        const v = pick(p);
        return v === undefined || Number.isNaN(v) ? [] : [{ time: p.time, value: round2(v) }];
      });
    series.cpu[node] = at((p) => (p.cpu === undefined ? undefined : p.cpu * 100));
    series.memory[node] = at((p) => (p.mem === undefined || !p.maxmem ? undefined : (p.mem / p.maxmem) * 100));
    series.network_in[node] = at((p) => p.netin);
    series.network_out[node] = at((p) => p.netout);
  }
  return {
    cluster: {
      name: cluster?.name ?? null,
      // A standalone node has no cluster entry and nothing to lose quorum with.
      quorum: cluster ? cluster.quorate === 1 : true,
      nodes_online: nodes.filter((n) => n.status === "online").length,
      nodes_total: nodes.length,
      vms: guests.filter((g) => g.type === "qemu").length,
      lxcs: guests.filter((g) => g.type === "lxc").length,
      uptime: Math.max(0, ...nodes.map((n) => n.uptime ?? 0)),
    },
    problems: problems.sort((a, b) => b.time - a.time),
    time_series: series,
    storage: [...storages.values()].map((s) => ({
      name: s.storage!,
      used_gb: round2((s.disk ?? 0) / GiB),
      total_gb: round2((s.maxdisk ?? 0) / GiB),
      content: s.content ?? "",
    })),
  };
}

function remember(key: string, value: ClusterOverview, clock: Clock) {
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, { at: clock.now().getTime(), value });
}

export const clusterOverview = defineRead({ scope: READ_INTEGRATIONS }, async (ctx, { id }: { id: number }): Promise<ClusterOverview> => {
  const row = await findConfig(ctx.db, "hv", id, HV_NOT_FOUND);
  const key = `${row.id}:${row.updated_at.getTime()}`;
  const hit = cache.get(key);
  if (hit && ctx.clock.now().getTime() - hit.at < OVERVIEW_TTL_MS) return hit.value;
  const api = await openHvApi(ctx.db, hvDepsOf(ctx), row);
  let value: ClusterOverview;
  try {
    const [status, resources, tasks] = await Promise.all([api.clusterStatus(), api.clusterResources(), api.clusterTasks()]);
    const online = resources.filter((r) => r.type === "node" && r.status === "online" && r.node).map((r) => r.node!);
    const rrd = new Map(await Promise.all(online.map(async (n) => [n, await api.rrddata(n)] as const)));
    value = buildOverview(status, resources, tasks, rrd, Math.floor(ctx.clock.now().getTime() / 1000));
  } catch (e) {
    // Not cached: the next request asks again.
    if (e instanceof PveError) throw new ApiError("BAD_REQUEST", `Cluster overview unavailable: ${e.message}`);
    throw e;
  }
  remember(key, value, ctx.clock);
  return value;
});
