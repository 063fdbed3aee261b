// Heartbeat pushes (issue 29 item 1, docs/adr/0439): GET /push/{token} to BENCH_PUSH_TOKENS push monitors
// (default 10,000) under wrk at 64 connections for BENCH_WRK_S seconds (default 10), against the
// benchmark's server process. Target: 5,000 pushes a second accepted by one process, each answered
// after its commit (the group commit shares a transaction among the pushes that arrive together).
// Figures: pushes/s, p50/p99, answers that were not 200, the samples committed (which must equal
// the 200s) and the server's and database's CPU per push. Only reports.
import { fileURLToPath } from "node:url";
import { pushTokenHash } from "../../shared/verbs/monitors/push/token.ts";
import { type BenchContext, type BenchRow, round } from "./harness.ts";
import { metered } from "./proc-cpu.ts";
import { wrk, WRK_MISSING, wrkInstalled } from "./wrk.ts";

const TOKENS = Number(process.env.BENCH_PUSH_TOKENS ?? "10000");
const SECONDS = Number(process.env.BENCH_WRK_S ?? "10");
const SCRIPT = fileURLToPath(new URL("./wrk-push.lua", import.meta.url));
const token = (i: number) => `pushbench${String(i).padStart(34, "0")}`;

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  if (!wrkInstalled()) return [{ name: "push GET", note: WRK_MISSING }];
  const tag = `bench-push-${process.pid}`;
  const rows = Array.from({ length: TOKENS }, (_, i) => ({ name: `${tag}-${i}`, hash: pushTokenHash(token(i)) }));
  // Due in a day: the sweep leaves them alone while the bench runs.
  for (let i = 0; i < rows.length; i += 1000)
    await ctx.sql`
      insert into monitors (name, check_type, host, config, interval_secs, status, next_check_at, push_token_hash)
      select r.name, 'push', '', '{}'::jsonb, 86400, 'up', now() + interval '1 day', r.hash
      from jsonb_to_recordset(${ctx.sql.json(rows.slice(i, i + 1000))}) as r(name text, hash text)`;
  try {
    const [before] = await ctx.sql<{ n: number }[]>`
      select count(*)::int as n from monitor_samples s join monitors m on m.id = s.monitor_id where m.name like ${`${tag}-%`}`;
    const { result: r, cost } = await metered(ctx.sql, ctx.serverPid, () =>
      wrk({ url: ctx.baseUrl, connections: 64, threads: 2, seconds: SECONDS, script: SCRIPT }),
    );
    const [after] = await ctx.sql<{ n: number }[]>`
      select count(*)::int as n from monitor_samples s join monitors m on m.id = s.monitor_id where m.name like ${`${tag}-%`}`;
    const committed = after!.n - before!.n;
    // CPU per answered push, the server's and its database backends': steadier than pushes/s on a shared machine.
    const us = (ms: number) => round((ms * 1000) / Math.max(1, r.requests));
    const perPush = cost ? `; CPU per push: server ${us(cost.serverMs)} us, database ${us(cost.databaseMs)} us` : "";
    return [
      {
        name: `push GET, ${TOKENS} monitors, 64 connections`,
        p50_ms: round(r.p50_ms),
        p99_ms: round(r.p99_ms),
        rps: round(r.rps),
        total_ms: round(r.seconds * 1000),
        note: `target >= 5000/s; ${r.requests} answered, ${r.non2xx} not 200, ${r.socketErrors} socket errors, ${committed} samples committed${perPush}`,
      },
    ];
  } finally {
    await ctx.sql`delete from monitors where name like ${`${tag}-%`}`;
  }
}
