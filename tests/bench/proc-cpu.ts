// CPU time (and memory) a run costs the server process and the bench database's PostgreSQL backends, read from
// /proc (Linux, PostgreSQL on this machine). Requests per second swing with whatever else the machine
// runs; CPU milliseconds per request barely do, so they tell where a change moved the cost.
import { readFileSync } from "node:fs";
import type postgres from "postgres";

// USER_HZ: /proc counts CPU time in ticks of 10 ms on every Linux build that matters here.
const TICK_MS = 10;

/** User + system CPU ms of a process so far, from /proc (Linux); throws where /proc cannot tell. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** A process's resident memory in bytes, from /proc (Linux). */
export function processRssBytes(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
}

/** processCpuMs, or undefined where /proc cannot tell (not Linux, another host). */
function cpuMs(pid: number): number | undefined {
  try {
    return processCpuMs(pid);
  } catch {
    return undefined;
  }
}

export interface CpuCost {
  serverMs: number;
  databaseMs: number;
}

async function backends(sql: postgres.Sql): Promise<Map<number, number>> {
  const rows = await sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database()`;
  return new Map(
    rows.flatMap(({ pid }) => {
      const ms = cpuMs(pid);
      return ms === undefined ? [] : [[pid, ms] as [number, number]];
    }),
  );
}

/** Runs `work` and returns what it cost in CPU, or undefined for the cost where /proc is unreadable. */
export async function metered<T>(sql: postgres.Sql, serverPid: number, work: () => Promise<T>): Promise<{ result: T; cost?: CpuCost }> {
  const server0 = cpuMs(serverPid);
  const db0 = await backends(sql);
  const result = await work();
  const server1 = cpuMs(serverPid);
  const db1 = await backends(sql);
  if (server0 === undefined || server1 === undefined || db1.size === 0) return { result };
  // A backend the pool opened during the run counts from zero.
  const databaseMs = [...db1].reduce((sum, [pid, ms]) => sum + ms - (db0.get(pid) ?? 0), 0);
  return { result, cost: { serverMs: server1 - server0, databaseMs } };
}
