// Monitors (issue 12, performance): one sidecar (the benchmark's server process, whose monitors worker
// runs as in production) checking 10,000 monitors at a 60 s interval (167 checks/s) against local
// targets: half http, half tcp, spread over 8 HTTP and 8 TCP listeners on 127.0.77.x addresses served
// by this process. The monitors' first due times are spread evenly over one interval; after a warm-up
// interval the window (BENCH_MONITORS_WINDOW_S, default 180 s) is measured. Figures: check lag (start
// minus due time; start = the sample's time minus its latency) p50/p99, checks skipped (a due time in
// the window with no result), the server's CPU and RSS, database rows written per second (inserts and
// updates of the monitor tables, from pg_stat_user_tables), and GET /monitors/{id}/uptime over a year
// of daily rollups (seeded for every monitor).
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { type BenchContext, type BenchRow, hit, measure, round } from "./harness.ts";
import { processCpuMs, processRssBytes } from "./proc-cpu.ts";

const COUNT = Number(process.env.BENCH_MONITORS ?? "10000");
const INTERVAL_S = 60;
const WINDOW_S = Number(process.env.BENCH_MONITORS_WINDOW_S ?? "180");
const LISTENERS = 8;
const pick = (sorted: number[], q: number) =>
  sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!) : NaN;

async function targets(): Promise<{ http: string[]; tcp: { host: string; port: number }[]; close(): Promise<void> }> {
  const servers: (Server | TcpServer)[] = [];
  const http: string[] = [];
  const tcp: { host: string; port: number }[] = [];
  for (let i = 1; i <= LISTENERS; i++) {
    const host = `127.0.77.${i}`;
    const h = createHttpServer((_req, res) => res.end("ok"));
    h.keepAliveTimeout = 1000;
    await new Promise<void>((r) => h.listen(0, host, r));
    http.push(`http://${host}:${(h.address() as { port: number }).port}/health`);
    const t = createTcpServer((s) => {
      s.on("error", () => {});
      s.end();
    });
    await new Promise<void>((r) => t.listen(0, host, r));
    tcp.push({ host, port: (t.address() as { port: number }).port });
    servers.push(h, t);
  }
  return {
    http,
    tcp,
    close: async () => {
      for (const s of servers) (s as Server).closeAllConnections?.();
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}

async function writes(ctx: BenchContext): Promise<number> {
  const [r] = await ctx.sql<{ n: string }[]>`
    select coalesce(sum(n_tup_ins + n_tup_upd), 0)::bigint as n from pg_stat_user_tables
    where relname in ('monitors', 'monitor_samples', 'monitor_uptime_minutes', 'monitor_events')`;
  return Number(r!.n);
}

/** A monitor row of the bench, as inserted (its name and next_check_at are set by measureMonitors). */
export interface BenchMonitor {
  check_type: string;
  host: string;
  config: Record<string, unknown>;
}

/**
 * Inserts `count` monitors at INTERVAL_S named `<tag>-<n>` (the tag has three dash-separated parts), due
 * times spread evenly over one interval, waits one interval, and measures WINDOW_S: check lag p50/p99,
 * checks skipped (and results down), the server's CPU and RSS and the rows written. `prepare` runs before the warm-up.
 * The monitors are deleted at the end.
 */
export async function measureMonitors(
  ctx: BenchContext,
  options: {
    tag: string;
    count: number;
    monitor: (n: number) => BenchMonitor;
    what: string;
    prepare?: () => Promise<void>;
    /** Rows measured after the window, while the monitors still exist. */
    after?: () => Promise<BenchRow[]>;
  },
): Promise<BenchRow[]> {
  const { tag, count } = options;
  try {
    // Due times spread over one interval, starting a few seconds from now.
    const t0 = Date.now() + 5000;
    const spacing = (INTERVAL_S * 1000) / count;
    for (let i = 0; i < count; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, count - i) }, (_, j) => ({
        name: `${tag}-${i + j}`,
        ...options.monitor(i + j),
        interval_secs: INTERVAL_S,
        next_check_at: new Date(t0 + (i + j) * spacing),
      }));
      await ctx.sql`insert into monitors ${ctx.sql(rows as never)}`;
    }
    await options.prepare?.();

    // Warm-up: one interval, then the measured window.
    await new Promise((r) => setTimeout(r, 5000 + INTERVAL_S * 1000));
    const from = Date.now();
    const cpu0 = processCpuMs(ctx.serverPid);
    const w0 = await writes(ctx);
    const rss0 = Math.round(processRssBytes(ctx.serverPid) / 2 ** 20);
    await new Promise((r) => setTimeout(r, WINDOW_S * 1000));
    const to = Date.now();
    const cpu = processCpuMs(ctx.serverPid) - cpu0;
    const written = (await writes(ctx)) - w0;
    const rss1 = Math.round(processRssBytes(ctx.serverPid) / 2 ** 20);

    // Each result's start (its time minus its latency) against the due time it answered.
    const samples = await ctx.sql<{ idx: number; start_ms: number; avail: boolean }[]>`
      select split_part(m.name, '-', 4)::int as idx, (extract(epoch from s.ts) * 1000 - coalesce(s.latency_ms, 0))::float8 as start_ms, s.avail
      from monitor_samples s join monitors m on m.id = s.monitor_id
      where m.name like ${`${tag}-%`} and s.ts >= ${new Date(from - 5000)} and s.ts < ${new Date(to + 5000)}`;
    const lags: number[] = [];
    const answered = new Set<string>();
    let down = 0;
    for (const s of samples) {
      const base = t0 + s.idx * spacing;
      const k = Math.round((s.start_ms - base) / (INTERVAL_S * 1000));
      const due = base + k * INTERVAL_S * 1000;
      if (due < from || due >= to) continue;
      lags.push(Math.max(0, s.start_ms - due));
      answered.add(`${s.idx}:${k}`);
      if (!s.avail) down++;
    }
    // Due times in the window, minus a margin at its end for checks still in flight.
    let expected = 0;
    let skipped = 0;
    for (let idx = 0; idx < count; idx++) {
      const base = t0 + idx * spacing;
      for (let k = Math.ceil((from - base) / (INTERVAL_S * 1000)); base + k * INTERVAL_S * 1000 < to - 5000; k++) {
        expected++;
        if (!answered.has(`${idx}:${k}`)) skipped++;
      }
    }
    lags.sort((a, b) => a - b);
    const seconds = (to - from) / 1000;
    const more = (await options.after?.()) ?? [];
    return [
      {
        name: `${count.toLocaleString("en")} monitors at ${INTERVAL_S} s: check lag (start - due)`,
        p50_ms: pick(lags, 0.5),
        p99_ms: pick(lags, 0.99),
        rps: round(lags.length / seconds),
        total_ms: to - from,
        note: `${lags.length} checks started in the window of ${expected} due (${skipped} skipped, ${down} down); ${options.what}`,
      },
      {
        name: `${count.toLocaleString("en")} monitors: server CPU, memory, database writes`,
        rps: round(written / seconds),
        note: `server CPU ${round((cpu / (seconds * 1000)) * 100)}% of one core; RSS ${rss0} -> ${rss1} MiB; ${written} rows inserted/updated in the monitor tables (${round(written / seconds)}/s; rps = rows/s)`,
      },
      ...more,
    ];
  } finally {
    await ctx.sql`delete from monitors where name like ${`${tag}-%`}`;
  }
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const peers = await targets();
  const tag = `bench-mon-${process.pid}`;
  try {
    return await measureMonitors(ctx, {
      tag,
      count: COUNT,
      what: `half http, half tcp over ${LISTENERS}+${LISTENERS} loopback listeners`,
      monitor: (n) => {
        const http = n % 2 === 0;
        const peer = Math.floor(n / 2) % LISTENERS;
        return http
          ? { check_type: "http", host: `127.0.77.${peer + 1}`, config: { url: peers.http[peer]!, timeout: 5 } }
          : { check_type: "tcp", host: peers.tcp[peer]!.host, config: { port: peers.tcp[peer]!.port, timeout: 2 } };
      },
      // A year of daily rollups for every monitor (for the uptime read), written before the run.
      prepare: async () => {
        await ctx.sql`
          insert into monitor_uptime_daily (monitor_id, day, up, total, minutes)
          select m.id, d::date, 1430, 1440, 1440 from monitors m, generate_series(current_date - 366, current_date - 1, interval '1 day') d
          where m.name like ${`${tag}-%`}`;
      },
      after: async () => {
        const ids = await ctx.sql<{ id: number }[]>`select id from monitors where name like ${`${tag}-%`} order by id limit 200`;
        const uptime = await measure(200, (i) => hit(ctx, "GET", `/api/v1/monitors/${ids[i % ids.length]!.id}/uptime`));
        return [
          {
            name: "GET /monitors/{id}/uptime (365 daily rollups + minute buckets)",
            p50_ms: uptime.p50,
            p99_ms: uptime.p99,
            rps: uptime.rps,
            note: "sequential, keep-alive",
          },
        ];
      },
    });
  } finally {
    await peers.close();
  }
}
