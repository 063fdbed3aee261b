// The monitors' series in GET /api/v1/metrics (issue 12 item 5): monitor_up (1 while the monitor's status
// is up or degraded, else 0: degraded counts as up, as in uptime, docs/adr/0441), monitor_degraded (1 while
// some but fewer than the quorum of a multi-vantage monitor's points report down) and monitor_response_ms (its latest latency), per enabled monitor that has been checked,
// labelled by id, name, check type and host. Paged by id like the other per-resource series.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/database.ts";
import { type Family, pageText, sampleLine } from "./exposition.ts";

interface MonitorRow {
  id: number;
  name: string;
  check_type: string;
  host: string;
  status: string;
  latency: number | null;
}

const LABELS = ["id", "name", "check_type", "host"] as const;
const labels = (r: MonitorRow) => [String(r.id), r.name, r.check_type, r.host];

const query = (after: number, limit: number) =>
  sql`select id, name, check_type, host, status, last_latency_ms::float8 as latency from monitors
    where enabled and last_polled_at is not null and id > ${after} order by id limit ${limit}`;

function monitorFamily(family: Family, line: (r: MonitorRow) => string) {
  return {
    ...family,
    query,
    async *chunks(db: Db, pageSize: number): AsyncGenerator<string> {
      for (let after = 0; ; ) {
        const rows = await queryRows<MonitorRow>(db, query(after, pageSize));
        if (rows.length) yield pageText(rows, line);
        if (rows.length < pageSize) return;
        after = rows.at(-1)!.id;
      }
    },
  };
}

const upFamily: Family = {
  name: "monitor_up",
  help: "Whether the monitor's last status is up or degraded (1) or not (0: down, pending, maintenance).",
  type: "gauge",
  labels: LABELS,
};
const degradedFamily: Family = {
  name: "monitor_degraded",
  help: "Whether the monitor is degraded (1): some, fewer than its quorum, of its vantage points report down.",
  type: "gauge",
  labels: LABELS,
};
const responseFamily: Family = {
  name: "monitor_response_ms",
  help: "The monitor's latest check latency, milliseconds.",
  type: "gauge",
  labels: LABELS,
};

export const MONITOR_FAMILIES = [
  monitorFamily(upFamily, (r) => sampleLine(upFamily, labels(r), r.status === "up" || r.status === "degraded" ? 1 : 0)),
  monitorFamily(degradedFamily, (r) => sampleLine(degradedFamily, labels(r), r.status === "degraded" ? 1 : 0)),
  monitorFamily(responseFamily, (r) => (r.latency === null ? "" : sampleLine(responseFamily, labels(r), Number(r.latency)))),
];
