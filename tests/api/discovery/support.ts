// Shared set-up of the discovery API tests: the agents' actors (driven clock, agent rows, NOTIFY collector,
// inventory nodes) plus scan jobs, profiles, results and logs arranged with SQL the way the API and the
// sidecar would have written them, the readiness the worker would have stored, and a scan made through the API.
import { expect } from "vitest";
import { type AgentActors, createAgentActors } from "../agents/support.ts";

export interface JobSeed {
  status?: "queued" | "running" | "completed" | "failed" | "cancelled";
  source_type?: string;
  label?: string | null;
  target_cidr?: string | null;
  targets?: string[];
  exclude?: string[];
  scan_types?: string[];
  tcp_ports?: number[];
  options?: Record<string, unknown>;
  profile_id?: number | null;
  scan_agent_id?: number | null;
  addresses_total?: number;
  claimed_by?: string | null;
  dispatch_id?: string | null;
  created_at?: Date;
}

export interface ProfileSeed {
  name?: string;
  targets?: string[];
  scan_types?: string[];
  tcp_ports?: number[];
  schedule_cron?: string | null;
  enabled?: boolean;
  paused_at?: Date | null;
  next_run_at?: Date | null;
  scan_agent_id?: number | null;
}

export interface ResultSeed {
  ip_address: string;
  mac_address?: string | null;
  hostname?: string | null;
  open_ports?: { port: number; protocol: string; service?: string | null; banner?: string | null }[];
  vendor?: string | null;
  state?: "new" | "matched" | "conflict";
  merge_status?: string;
  matched_entity_type?: string | null;
  matched_entity_id?: number | null;
  sources?: string[];
}

export interface DiscoveryActors extends AgentActors {
  /** A scan_jobs row as POST /discovery/scan (queued) or the worker (running, completed ...) leaves it. */
  job(seed?: JobSeed): Promise<number>;
  /** A discovery_profiles row (no snmp community). */
  profile(seed?: ProfileSeed): Promise<number>;
  /** A scan_results row of `jobId`. */
  result(jobId: number, seed: ResultSeed): Promise<number>;
  /** A scan_logs row of `jobId`. */
  log(jobId: number, level: string, message: string, phase?: string | null): Promise<void>;
  /** Stores app_settings `discovery_readiness` as the worker writes it from the engine's probe. */
  readiness(states?: Partial<Record<string, "ready" | "degraded" | "unavailable">>): Promise<void>;
  /** Sets app_settings `discovery_paused`. */
  paused(on: boolean): Promise<void>;
  /** POST /discovery/scan as `token` (default admin); expects 201/202 and answers the body (one job or an array). */
  scan(body: Record<string, unknown>, token?: string): Promise<any>;
}

const CAPABILITIES = ["icmp", "tcp", "dns", "arp", "nmap", "snmp", "docker"] as const;

/** Readiness as the engine's probe reports it: every capability ready unless `states` says otherwise. */
export function readinessDoc(states: Partial<Record<string, "ready" | "degraded" | "unavailable">> = {}) {
  return {
    helper_installed: false,
    checked_at: new Date().toISOString(),
    capabilities: CAPABILITIES.map((key) => {
      const state = states[key] ?? "ready";
      return {
        key,
        title: key.toUpperCase(),
        state,
        explanation: state === "ready" ? `${key} works` : `${key} is not usable here`,
        reason_code: state === "ready" ? null : "not_installed",
        last_healed_at: null,
        last_error: null,
      };
    }),
  };
}

export async function createDiscoveryActors(env: Record<string, string> = {}): Promise<DiscoveryActors> {
  const a = await createAgentActors(env);
  const sql = a.t.sql;
  const setting = async (key: string, value: unknown) => {
    await sql`insert into app_settings (key, value) values (${key}, ${sql.json(value as never)})
      on conflict (key) do update set value = excluded.value`;
  };
  return {
    ...a,
    async job(seed = {}) {
      const status = seed.status ?? "queued";
      const now = a.clock.now();
      const started = status === "queued" ? null : now;
      const finished = status === "completed" || status === "failed" || status === "cancelled" ? now : null;
      const targets = seed.targets ?? (seed.target_cidr ? [seed.target_cidr] : ["127.0.0.0/30"]);
      const [row] = await sql<{ id: number }[]>`
        insert into scan_jobs (profile_id, scan_agent_id, source_type, label, target_cidr, targets, exclude, scan_types, tcp_ports, options,
          status, started_at, completed_at, addresses_total, triggered_by, claimed_by, claimed_at, dispatch_id, dispatched_at, created_at, updated_at)
        values (${seed.profile_id ?? null}, ${seed.scan_agent_id ?? null}, ${seed.source_type ?? "manual"}, ${seed.label ?? null},
          ${seed.target_cidr === undefined ? targets[0]! : seed.target_cidr}, ${sql.json(targets)}, ${sql.json(seed.exclude ?? [])},
          ${sql.json(seed.scan_types ?? ["icmp", "tcp"])}, ${sql.json(seed.tcp_ports ?? [22, 80])}, ${sql.json((seed.options ?? {}) as never)},
          ${status}, ${started}, ${finished}, ${seed.addresses_total ?? 2}, ${"admin@example.com"}, ${seed.claimed_by ?? null},
          ${seed.claimed_by ? now : null}, ${seed.dispatch_id ?? null}, ${seed.dispatch_id ? now : null}, ${seed.created_at ?? now}, ${seed.created_at ?? now})
        returning id`;
      return row!.id;
    },
    async profile(seed = {}) {
      const [row] = await sql<{ id: number }[]>`
        insert into discovery_profiles (name, cidr, targets, scan_types, tcp_ports, schedule_cron, enabled, paused_at, next_run_at, scan_agent_id)
        values (${seed.name ?? `profile-${Math.random().toString(36).slice(2, 8)}`}, ${(seed.targets ?? ["127.0.0.0/30"])[0] ?? null},
          ${sql.json(seed.targets ?? ["127.0.0.0/30"])}, ${sql.json(seed.scan_types ?? ["icmp", "tcp"])}, ${sql.json(seed.tcp_ports ?? [])},
          ${seed.schedule_cron ?? null}, ${seed.enabled ?? true}, ${seed.paused_at ?? null}, ${seed.next_run_at ?? null}, ${seed.scan_agent_id ?? null})
        returning id`;
      return row!.id;
    },
    async result(jobId, seed) {
      const [row] = await sql<{ id: number }[]>`
        insert into scan_results (scan_job_id, ip_address, mac_address, hostname, open_ports, vendor, state, merge_status,
          matched_entity_type, matched_entity_id, sources)
        values (${jobId}, ${seed.ip_address}, ${seed.mac_address ?? null}, ${seed.hostname ?? null}, ${sql.json((seed.open_ports ?? []) as never)},
          ${seed.vendor ?? null}, ${seed.state ?? "new"}, ${seed.merge_status ?? "pending"}, ${seed.matched_entity_type ?? null},
          ${seed.matched_entity_id ?? null}, ${sql.json(seed.sources ?? ["icmp"])})
        returning id`;
      return row!.id;
    },
    async log(jobId, level, message, phase = null) {
      await sql`insert into scan_logs (scan_job_id, level, phase, message) values (${jobId}, ${level}, ${phase}, ${message})`;
    },
    readiness: (states = {}) => setting("discovery_readiness", readinessDoc(states)),
    paused: (on) => setting("discovery_paused", on),
    async scan(body, token = a.admin) {
      const res = await a.req("POST", "discovery/scan", token, body);
      expect([201, 202], await res.clone().text()).toContain(res.status);
      return res.json();
    },
  };
}
