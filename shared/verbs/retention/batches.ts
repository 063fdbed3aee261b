// How retention walks big tables in short transactions. Each batch is ONE statement (delete the raw
// rows, write their aggregate) in a transaction of its own, a verb run as whoever runs the job: killed
// at any moment, a batch either happened completely or not at all, and the next run carries on where
// the rows say. No table locks; ingestion of new rows goes on beside it.
import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { throwIfStopped } from "../jobs/job.ts";
import { JOBS_SCOPE } from "../jobs/scope.ts";
import type { VerbContext } from "../verb-context.ts";
import { defineVerb } from "../verb.ts";
import { HOUR_MS } from "./cutoffs.ts";

export const DEFAULT_BATCH_ROWS = 50_000;

/** Counts batches; stops the run at `max` batches (tests: "killed" after one) or when the drain aborts. */
export class BatchBudget {
  used = 0;
  readonly #max: number | undefined;
  readonly #signal: AbortSignal | undefined;

  constructor(max: number | undefined, signal: AbortSignal | undefined) {
    this.#max = max;
    this.#signal = signal;
  }

  /** False once the budget is spent; throws JobStopped when the process is draining. */
  take(): boolean {
    throwIfStopped(this.#signal);
    if (this.#max !== undefined && this.used >= this.#max) return false;
    this.used++;
    return true;
  }

  get exhausted(): boolean {
    return this.#max !== undefined && this.used >= this.#max;
  }
}

interface Key {
  id: number;
  hour: Date;
}

export interface BandSpec {
  /** Table and entity column (the index on (entity, ts) orders the walk). */
  table: "hardware_live_metrics" | "agent_host_samples";
  entity: "hardware_id" | "agent_id";
  /** The band's time bounds alone (columns of the index), for sizing batches. */
  bounds: SQL;
}

/**
 * One statement of the walk in its own short transaction, planned for its own parameters and with JIT
 * off. The walk repeats the same statements with new time ranges, and after five runs PostgreSQL may
 * switch a prepared statement to a generic plan, which for these ranges chose badly (612 s instead of
 * about 90 s); and a batch's estimated cost is above jit_above_cost, where compiling would cost more
 * than running it. A verb with no audit entry and no event: BEGIN, the settings, the statement, COMMIT.
 */
const batch = defineVerb<SQL, unknown>({ scope: JOBS_SCOPE }, async ({ tx }, statement) => {
  await tx.execute(sql`select set_config('plan_cache_mode', 'force_custom_plan', true), set_config('jit', 'off', true)`);
  const [row] = await queryRows(tx, statement);
  return row;
});

/** The first row `statement` answers, as one batch. */
export async function batchStatement<T>(ctx: VerbContext, statement: SQL): Promise<T | undefined> {
  return (await batch({ ctx, input: statement })) as T | undefined;
}

/**
 * The key where the next batch ends: the hour of the row `rows` rows past `start`, or null (to the end).
 * It reads only the (entity, ts) index (an index-only scan on settled pages), so hourly rows already in
 * the band count towards a batch's size too, which only makes batches a little smaller.
 */
async function boundary(ctx: VerbContext, spec: BandSpec, start: Key | null, rows: number): Promise<Key | null> {
  const entity = sql.raw(spec.entity);
  const row = await batchStatement<Key>(
    ctx,
    sql`select ${entity} as id, date_trunc('hour', ts, 'UTC') as hour from ${sql.raw(spec.table)}
      where ${spec.bounds} and ${from(spec, start)}
      order by ${entity}, ts offset ${rows} limit 1`,
  );
  return row ? { id: Number(row.id), hour: new Date(row.hour) } : null;
}

/**
 * `(entity, ts) <op> key`, its columns qualified by `q` (a table name or alias) when given. The plain
 * bound on the entity alone repeats what the row comparison says, because the planner cannot estimate a
 * row comparison: without it, it may walk the ts index across the whole band for every batch.
 */
function keyCompare(spec: BandSpec, op: ">=" | "<", k: Key | null, q?: string): SQL {
  if (!k) return sql`true`;
  const entity = q ? `${q}.${spec.entity}` : spec.entity;
  const ts = q ? `${q}.ts` : "ts";
  return sql`${sql.raw(entity)} ${sql.raw(op === ">=" ? ">=" : "<=")} ${k.id}::int
    and (${sql.raw(`${entity}, ${ts}`)}) ${sql.raw(op)} (${k.id}::int, ${k.hour.toISOString()}::timestamptz)`;
}
const from = (spec: BandSpec, k: Key | null) => keyCompare(spec, ">=", k);

/** A batch's key range; `q` qualifies the columns, for statements that join the table to itself. */
export type BatchRange = (q?: string) => SQL;

/**
 * Walks the band in (entity, ts) order, about `rows` rows a batch, cut on hour boundaries so an
 * entity's hour is always aggregated by a single batch; `step` receives the batch's range predicate.
 * (Statements must repeat the range on every reference to the big table: a join on the table without
 * it lets the planner scan all of it, once per batch.)
 * Returns false when the budget ran out before the end.
 */
export async function eachBatch(
  ctx: VerbContext,
  spec: BandSpec,
  rows: number,
  budget: BatchBudget,
  step: (range: BatchRange) => Promise<void>,
): Promise<boolean> {
  let start: Key | null = null;
  for (;;) {
    if (!budget.take()) return false;
    let end = await boundary(ctx, spec, start, rows);
    // One entity-hour holding more than `rows` rows: take that hour whole.
    if (end && start && end.id === start.id && end.hour.getTime() === start.hour.getTime())
      end = { id: end.id, hour: new Date(end.hour.getTime() + HOUR_MS) };
    const [lo, hi] = [start, end];
    await step((q) => sql`${keyCompare(spec, ">=", lo, q)} and ${keyCompare(spec, "<", hi, q)}`);
    if (!end) return true;
    start = end;
  }
}

/**
 * Deletes the rows matching `expired` in batches of `rows`, oldest first (walking the ts index forward,
 * so no batch rescans what an earlier one deleted). Returns how many went, or null if the budget ran out.
 */
export async function deleteInBatches(
  ctx: VerbContext,
  t: { table: string; key: string; ts: string; expired: SQL },
  rows: number,
  budget: BatchBudget,
): Promise<{ deleted: number; complete: boolean }> {
  const table = sql.raw(t.table);
  const ts = sql.raw(t.ts);
  const key = sql.raw(t.key);
  let deleted = 0;
  let last: string | null = null;
  for (;;) {
    if (!budget.take()) return { deleted, complete: false };
    const after: SQL = last ? sql`${ts} >= ${last}::timestamptz` : sql`true`;
    const r = await batchStatement<{ n: number; last: Date | null }>(
      ctx,
      sql`with gone as (
        delete from ${table} where (${key}) in (select ${key} from ${table} where ${t.expired} and ${after} order by ${ts} limit ${rows})
        returning ${ts} as ts
      ) select count(*)::int as n, max(ts) as last from gone`,
    );
    deleted += r?.n ?? 0;
    if (!r || r.n < rows || !r.last) return { deleted, complete: true };
    last = new Date(r.last).toISOString();
  }
}

/**
 * The SET expression that folds a new hourly average into an existing one, each weighted by its
 * sample count (so a late row merged into its hour keeps the average exact); null sides give way.
 */
export function weightedMerge(column: string, old: { alias: string; count: string }, add: { alias: string; count: string }): SQL {
  const o = `${old.alias}.${column}`;
  const a = `${add.alias}.${column}`;
  return sql.raw(
    `${column} = case when ${a} is null then ${o} when ${o} is null then ${a} else (${o}::float8 * ${old.count} + ${a}::float8 * ${add.count}) / (${old.count} + ${add.count}) end`,
  );
}
