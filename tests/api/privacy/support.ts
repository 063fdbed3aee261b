// Set-up of the privacy API tests: the discovery actors (driven clock, scan jobs and results arranged
// with SQL as the worker writes them) plus hardware nodes carrying what a port scan saw on them.
import { type DiscoveryActors, createDiscoveryActors } from "../discovery/support.ts";

export interface PrivacyActors extends DiscoveryActors {
  /** A hardware node (role, address) and, when `ports` is given, a completed port scan's result matched to it. */
  device(
    name: string,
    ip: string,
    role: string | null,
    ports?: { port: number; protocol?: string; service?: string; banner?: string; http_title?: string; server?: string }[],
  ): Promise<number>;
  /** A completed tcp scan's result for an existing node (a later scan of it). */
  rescan(hardwareId: number, ip: string, ports: { port: number; service?: string; banner?: string; http_title?: string }[]): Promise<void>;
  /** The privacy alerts handed to the notification routes, oldest first. */
  alerts(): Promise<{ kind: string; severity: string; target_id: number | null; title: string; detail: Record<string, unknown> }[]>;
  /** GET as `token` (default viewer) answering status and body. */
  get(path: string, token?: string): Promise<{ status: number; body: any }>;
  refresh(token?: string): Promise<any>;
}

export async function createPrivacyActors(): Promise<PrivacyActors> {
  const a = await createDiscoveryActors();
  const sql = a.t.sql;
  const scanned = async (hardwareId: number, ip: string, ports: { port: number; protocol?: string }[]) => {
    const job = await a.job({
      status: "completed",
      scan_types: ["tcp", "banner", "http"],
      targets: [ip],
      tcp_ports: ports.map((p) => p.port),
    });
    await a.result(job, {
      ip_address: ip,
      open_ports: ports.map((p) => ({ protocol: "tcp", ...p })),
      state: "matched",
      merge_status: "accepted",
      matched_entity_type: "hardware",
      matched_entity_id: hardwareId,
      sources: ["tcp"],
    });
  };
  return {
    ...a,
    async device(name, ip, role, ports) {
      const at = a.clock.now();
      const [row] = await sql<
        { id: number }[]
      >`insert into hardware (name, role, ip_address, created_at, updated_at) values (${name}, ${role}, ${ip}, ${at}, ${at}) returning id`;
      if (ports) await scanned(row!.id, ip, ports);
      return row!.id;
    },
    rescan: (hardwareId, ip, ports) => scanned(hardwareId, ip, ports),
    async alerts() {
      return sql`select kind, severity, target_id, title, detail from notification_alerts where kind like 'privacy.%' order by id` as never;
    },
    async get(path, token = a.viewer) {
      const res = await a.req("GET", path, token);
      return { status: res.status, body: await res.json() };
    },
    async refresh(token = a.admin) {
      const res = await a.req("POST", "network/privacy-score/refresh", token);
      if (res.status !== 200) throw new Error(`refresh answered ${res.status}: ${await res.text()}`);
      return res.json();
    },
  };
}
