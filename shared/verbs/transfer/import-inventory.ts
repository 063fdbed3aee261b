// POST /admin/import: an export document merged into the inventory by key, in one transaction. Every
// row is validated first (the create verbs' field rules, 422 with its JSON path); then kind by kind, in
// an order where a kind follows the kinds it references, each chunk of rows has its references checked
// against the database (which by then holds the document's earlier kinds), its unique values checked,
// each row classified (created / updated / unchanged) and the changed rows upserted. Any conflict
// rolls the whole import back with a 422 naming the kind and the id. A dry run walks the same path
// inside a savepoint that is always rolled back and answers the diff, conflicts included.
import { getTableColumns, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import * as v from "valibot";
import type { Db } from "../../db/database.ts";
import { queryRows } from "../../db/database.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import { requireVerifiedBackup } from "../backups/verified-backup.ts";
import { defineVerb, savepointOn, type VerbScope } from "../verb.ts";
import { PRESENTERS } from "../event-rules/presenters.ts";
import { kindsWithRules, recordChange } from "../event-rules/record-change.ts";
import { isEventKind } from "../event-rules/kinds.ts";
import { wipeInventory } from "./clear-lab.ts";
import { columnDefault, KIND_BY_KEY, KINDS, type Kind, TAGGED_KINDS } from "./kinds.ts";
import { type PlacementProblem, placementProblems } from "./rack-placements.ts";
import { ADMIN_SCOPE, INVENTORY_IMPORT_LOCK } from "./scope.ts";
import { ident, jsonbObject, keyJoin, list, qualified } from "./sql-parts.ts";

export const RESTORE_WITH_WIPE = { action: "RESTORE_WITH_WIPE", requiresBackup: true } as const;

/** The job_runs name an import is recorded under (GET /admin/jobs shows it). */
export const IMPORT_JOB = "inventory_import";

/** Rows per statement: a chunk's JSON goes to PostgreSQL as one parameter. */
export const IMPORT_CHUNK = 1000;
/** Validation problems reported at once before the answer stops listing them. */
const MAX_ISSUES = 50;
/** Conflicts listed per kind in a dry run (the counts stay exact). */
const MAX_CONFLICTS = 200;
const METADATA_KEYS = new Set(["version", "format", "exported_at"]);

export interface Conflict {
  id: number | string;
  index: number;
  reason: string;
}

export interface KindDiff {
  created: number;
  updated: number;
  unchanged: number;
  conflicts: Conflict[];
  conflict_count: number;
}

export interface ImportInput {
  data: Record<string, unknown>;
  wipe: boolean;
  dryRun: boolean;
  /** Whether this process takes backups, so a wipe must find a verified one (verified-backup.ts). */
  backupsAvailable: boolean;
}

export interface ImportResult {
  imported: boolean;
  dry_run: boolean;
  wiped: boolean;
  ignored_keys: string[];
  kinds: Record<string, KindDiff>;
}

type Row = Record<string, unknown>;

const TAGGED_TYPES = TAGGED_KINDS.map((k) => k.entityType!);
const EntityTag = v.object({
  entity_type: v.picklist(TAGGED_TYPES, `Must be one of: ${TAGGED_TYPES.join(", ")}.`),
  entity_id: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647)),
  tag_id: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647)),
});

const keyOf = (kind: Kind, row: Row): number | string =>
  kind.pk.length === 1 ? (row[kind.pk[0]!] as number) : kind.pk.map((c) => String(row[c])).join("/");

/**
 * Validates every row in place (each array element is replaced by its normalised form, so the
 * document is never held twice) and answers the keys that are not kinds.
 */
export function validateDocument(data: Record<string, unknown>, now: Date): { ignored: string[] } {
  const issues: ValidationIssue[] = [];
  const ignored: string[] = [];
  const add = (loc: (string | number)[], msg: string, type: string) => {
    if (issues.length < MAX_ISSUES) issues.push({ loc: ["body", "data", ...loc], msg, type });
  };
  for (const [key, value] of Object.entries(data)) {
    if (METADATA_KEYS.has(key)) continue;
    const kind = KIND_BY_KEY.get(key);
    if (!kind && key !== "entity_tags") {
      ignored.push(key);
      continue;
    }
    if (!Array.isArray(value)) {
      add([key], "Must be an array of rows.", "type");
      continue;
    }
    const schema = kind ? kind.schema : EntityTag;
    const defaults = kind ? columnDefaults(kind, now) : [];
    for (let i = 0; i < value.length; i++) {
      const raw = value[i];
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
        add([key, i], "Must be an object.", "type");
        continue;
      }
      const input = { ...(raw as Row) };
      kind?.fill?.(input);
      const result = v.safeParse(schema, input);
      if (!result.success) {
        for (const issue of result.issues)
          add([key, i, ...(issue.path ?? []).map((p) => p.key as string | number)], issue.message, issue.type);
        continue;
      }
      const row = result.output as Row;
      for (const [column, fallback] of defaults) if (row[column] === undefined) row[column] = fallback;
      if (kind) for (const column of kind.columns) if (row[column] === undefined) row[column] = null;
      value[i] = row;
    }
  }
  if (issues.length > 0) throw ApiError.validation(issues);
  return { ignored };
}

function columnDefaults(kind: Kind, now: Date): [string, unknown][] {
  const columns = Object.values(getTableColumns(kind.table) as Record<string, PgColumn>);
  return columns
    .filter((c) => c.notNull && c.hasDefault && kind.columns.includes(c.name))
    .map((c) => [c.name, columnDefault(c, now)] as [string, unknown]);
}

const emptyDiff = (): KindDiff => ({ created: 0, updated: 0, unchanged: 0, conflicts: [], conflict_count: 0 });

/** The ids among `ids` that `table` does not hold. */
async function missingIds(tx: Db, table: string, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await queryRows<{ v: number }>(
    tx,
    sql`select x.v from (select (e)::int as v from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) e) x
        where not exists (select 1 from ${ident(table)} p where p.id = x.v)`,
  );
  return new Set(rows.map((r) => Number(r.v)));
}

/** Where an import that commits records its created and updated rows for the event rules (docs/event-rules.md). */
interface ImportEvents {
  s: VerbScope;
  /** The kinds an enabled rule names: only their rows are read before and after the write. */
  kinds: Set<string>;
}

class ImportRun {
  readonly kinds: Record<string, KindDiff> = {};
  private readonly tx: Db;
  private readonly dryRun: boolean;
  private readonly now: Date;
  private readonly events: ImportEvents | undefined;
  constructor(tx: Db, dryRun: boolean, now: Date, events?: ImportEvents) {
    this.tx = tx;
    this.dryRun = dryRun;
    this.now = now;
    this.events = events;
  }

  /** The rows of `kind` with these ids as stored (for the event rules' snapshots). */
  private async rowsById(kind: Kind, ids: number[]): Promise<Map<number, Row>> {
    if (ids.length === 0) return new Map();
    const rows = await queryRows<Row>(
      this.tx,
      sql`select * from ${ident(kind.name)} where id in (select (e)::int from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) e)`,
    );
    return new Map(rows.map((r) => [Number(r.id), r]));
  }

  /** Records a conflict; outside a dry run the first chunk with any ends the import (422). */
  private fail(kind: string, found: Map<number, string>, rows: Row[], start: number, keyFn: (r: Row) => number | string): void {
    if (found.size === 0) return;
    const diff = (this.kinds[kind] ??= emptyDiff());
    const list = [...found].map(([i, reason]) => ({ id: keyFn(rows[i]!), index: start + i, reason }));
    if (!this.dryRun) {
      const first = list[0]!;
      throw new ApiError(
        "VALIDATION_ERROR",
        list
          .slice(0, MAX_ISSUES)
          .map((c) => ({ loc: ["body", "data", kind, c.index], msg: `Import failed: ${kind} ${c.id}: ${c.reason}`, type: "conflict" })),
        { fields: { [`data.${kind}.${first.index}`]: first.reason }, kind, id: first.id },
      );
    }
    diff.conflict_count += list.length;
    diff.conflicts.push(...list.slice(0, Math.max(0, MAX_CONFLICTS - diff.conflicts.length)));
  }

  /**
   * Rack placements that break the rules once every row is written (rack-placements.ts): outside a dry
   * run the first ends the import (422 naming the row), in a dry run each is a conflict of its kind.
   */
  placements(problems: PlacementProblem[], data: Record<string, unknown>): void {
    const indexOf = (p: PlacementProblem) => {
      const rows = data[p.kind];
      return Array.isArray(rows) ? rows.findIndex((r: Row) => r.id === p.id) : -1;
    };
    const first = problems[0];
    if (!first) return;
    if (!this.dryRun)
      throw new ApiError(
        "VALIDATION_ERROR",
        problems.map((p) => ({
          loc: ["body", "data", p.kind, indexOf(p)],
          msg: `Import failed: ${p.kind} ${p.id}: ${p.reason}`,
          type: "conflict",
        })),
        { fields: { [`data.${first.kind}.${indexOf(first)}`]: first.reason }, kind: first.kind, id: first.id },
      );
    for (const p of problems) {
      const diff = (this.kinds[p.kind] ??= emptyDiff());
      diff.conflict_count++;
      if (diff.conflicts.length < MAX_CONFLICTS) diff.conflicts.push({ id: p.id, index: indexOf(p), reason: p.reason });
    }
  }

  /** References of a chunk to rows that exist neither in the document (already written) nor before. */
  private async referenceProblems(kind: Kind, rows: Row[]): Promise<Map<number, string>> {
    const problems = new Map<number, string>();
    for (const [column, target] of Object.entries(kind.refs)) {
      const ids = [...new Set(rows.map((r) => r[column]).filter((x): x is number => typeof x === "number"))];
      const missing = await missingIds(this.tx, KIND_BY_KEY.get(target)!.name, ids);
      rows.forEach((r, i) => {
        if (missing.has(r[column] as number) && !problems.has(i))
          problems.set(i, `${column} ${String(r[column])} names a ${target} row that is neither in the document nor in the database`);
      });
    }
    for (const { typeColumn, idColumn, kinds } of [kind.poly ?? []].flat()) {
      for (const [type, target] of Object.entries(kinds)) {
        const ids = [...new Set(rows.filter((r) => r[typeColumn] === type).map((r) => r[idColumn] as number))];
        const missing = await missingIds(this.tx, KIND_BY_KEY.get(target)!.name, ids);
        rows.forEach((r, i) => {
          if (r[typeColumn] === type && missing.has(r[idColumn] as number) && !problems.has(i))
            problems.set(i, `${idColumn} ${String(r[idColumn])} names a ${target} row that is neither in the document nor in the database`);
        });
      }
    }
    return problems;
  }

  /** Rows whose unique values another row (another id) already holds. */
  private async uniqueProblems(kind: Kind, rows: Row[], problems: Map<number, string>): Promise<void> {
    if (kind.pk.length !== 1 || kind.unique.length === 0) return;
    const byId = new Map(rows.map((r, i) => [r.id as number, i]));
    for (const columns of kind.unique) {
      const clashes = await queryRows<{ id: number; other: number }>(
        this.tx,
        sql`select d.id, t.id as other from jsonb_populate_recordset(null::${ident(kind.name)}, ${JSON.stringify(rows)}::jsonb) d
            join ${ident(kind.name)} t on ${keyJoin("t", "d", columns)} and t.id <> d.id`,
      );
      for (const c of clashes) {
        const i = byId.get(Number(c.id));
        if (i !== undefined && !problems.has(i)) problems.set(i, `${columns.join(", ")} is already held by ${kind.key} ${c.other}`);
      }
    }
  }

  async kind(kind: Kind, all: Row[]): Promise<void> {
    const diff = (this.kinds[kind.key] ??= emptyDiff());
    const values = kind.columns.filter((c) => !kind.pk.includes(c));
    // A key given twice would be written twice in one statement, or silently overwrite itself.
    const seen = new Map<number | string, number>();
    for (let start = 0; start < all.length; start += IMPORT_CHUNK) {
      const chunk = all.slice(start, start + IMPORT_CHUNK);
      const problems = await this.referenceProblems(kind, chunk);
      chunk.forEach((r, i) => {
        const key = keyOf(kind, r);
        const first = seen.get(key);
        if (first === undefined) seen.set(key, start + i);
        else problems.set(i, `the key ${String(key)} is already at index ${first} of ${kind.key}`);
      });
      await this.uniqueProblems(kind, chunk, problems);
      this.fail(kind.key, problems, chunk, start, (r) => keyOf(kind, r));
      const kept = chunk.map((row, at) => ({ row, at })).filter(({ at }) => !problems.has(at));
      if (kept.length === 0) continue;
      const states = await queryRows<{ i: number; created: boolean; same: boolean }>(
        this.tx,
        sql`select e.i::int as i, t.${ident(kind.pk[0]!)} is null as created, ${jsonbObject("t", values)} = ${jsonbObject("d", values)} as same
            from jsonb_array_elements(${JSON.stringify(kept.map((k) => k.row))}::jsonb) with ordinality e(j, i)
            cross join lateral jsonb_populate_record(null::${ident(kind.name)}, e.j) d
            left join ${ident(kind.name)} t on ${keyJoin("t", "d", kind.pk)}`,
      );
      const changed: { row: Row; at: number; created: boolean }[] = [];
      for (const s of states) {
        const { row, at } = kept[Number(s.i) - 1]!;
        if (s.created || !s.same) changed.push({ row, at, created: s.created });
        else diff.unchanged++;
      }
      if (changed.length === 0) continue;
      const entityType = kind.entityType;
      const sent = this.events && entityType && isEventKind(entityType) && this.events.kinds.has(entityType) ? entityType : undefined;
      const befores = sent
        ? await this.rowsById(
            kind,
            changed.filter((c) => !c.created).map((c) => Number(c.row.id)),
          )
        : new Map<number, Row>();
      let written = changed;
      if (
        (await this.upsert(
          kind,
          values,
          changed.map((c) => c.row),
        )) !== null
      ) {
        // The database refused something in the chunk: row by row, to name the rows it refuses.
        const refused = new Map<number, string>();
        written = [];
        for (const c of changed) {
          const reason = await this.upsert(kind, values, [c.row]);
          if (reason === null) written.push(c);
          else refused.set(c.at, reason);
          if (!this.dryRun && refused.size > 0) break;
        }
        this.fail(kind.key, refused, chunk, start, (r) => keyOf(kind, r));
      }
      for (const c of written) c.created ? diff.created++ : diff.updated++;
      if (sent && this.events) {
        // One read of the written rows per chunk; the deliveries are inserted once for the whole import.
        const afters = await this.rowsById(
          kind,
          written.map((c) => Number(c.row.id)),
        );
        for (const c of written) {
          const id = Number(c.row.id);
          recordChange(
            this.events.s,
            { entityType: sent, present: PRESENTERS[sent].present },
            c.created ? "create" : "update",
            id,
            befores.get(id),
            afters.get(id),
          );
        }
      }
    }
  }

  /** Upserts `rows` in a savepoint; answers null, or why the database refused them. */
  private async upsert(kind: Kind, values: string[], rows: Row[]): Promise<string | null> {
    const cols = list(kind.columns.map(ident));
    const onConflict =
      values.length === 0 ? sql`do nothing` : sql`do update set ${list(values.map((c) => sql`${ident(c)} = excluded.${ident(c)}`))}`;
    try {
      await savepointOn(this.tx, async (sp) => {
        await sp.execute(
          sql`insert into ${ident(kind.name)} (${cols})
              select ${list(kind.columns.map((c) => qualified("d", c)))} from jsonb_populate_recordset(null::${ident(kind.name)}, ${JSON.stringify(rows)}::jsonb) d
              on conflict (${list(kind.pk.map(ident))}) ${onConflict}`,
        );
      });
      return null;
    } catch (err) {
      const cause = (err as { cause?: { message?: string; detail?: string } }).cause ?? (err as { message?: string; detail?: string });
      return `the database refused the row: ${cause.message ?? "unknown error"}${cause.detail ? ` (${cause.detail})` : ""}`;
    }
  }

  /** entity_tags: each names a tag an entity's `tags` array should hold; missing names are appended. */
  async entityTags(all: Row[]): Promise<void> {
    const diff = (this.kinds.entity_tags ??= emptyDiff());
    const keyFn = (r: Row) => `${String(r.entity_type)}/${String(r.entity_id)}/${String(r.tag_id)}`;
    for (let start = 0; start < all.length; start += IMPORT_CHUNK) {
      const chunk = all.slice(start, start + IMPORT_CHUNK);
      const problems = new Map<number, string>();
      const missingTags = await missingIds(this.tx, "tags", [...new Set(chunk.map((r) => r.tag_id as number))]);
      for (const [i, r] of chunk.entries())
        if (missingTags.has(r.tag_id as number))
          problems.set(i, `tag_id ${String(r.tag_id)} names a tags row that is neither in the document nor in the database`);
      for (const kind of TAGGED_KINDS) {
        const missing = await missingIds(this.tx, kind.name, [
          ...new Set(chunk.filter((r) => r.entity_type === kind.entityType).map((r) => r.entity_id as number)),
        ]);
        chunk.forEach((r, i) => {
          if (r.entity_type === kind.entityType && missing.has(r.entity_id as number) && !problems.has(i))
            problems.set(i, `entity_id ${String(r.entity_id)} names a ${kind.key} row that is neither in the document nor in the database`);
        });
      }
      this.fail("entity_tags", problems, chunk, start, keyFn);
      const rows = chunk.filter((_, i) => !problems.has(i));
      for (const kind of TAGGED_KINDS) {
        const mine = rows.filter((r) => r.entity_type === kind.entityType);
        if (mine.length === 0) continue;
        const input = sql`(select e.entity_id, g.name from jsonb_to_recordset(${JSON.stringify(mine)}::jsonb) e(entity_id int, tag_id int) join tags g on g.id = e.tag_id)`;
        const [counts] = await queryRows<{ present: number; absent: number }>(
          this.tx,
          sql`select count(*) filter (where x.name = any(k.tags))::int as present, count(*) filter (where not x.name = any(k.tags))::int as absent
              from ${input} x join ${ident(kind.name)} k on k.id = x.entity_id`,
        );
        diff.unchanged += counts?.present ?? 0;
        diff.created += counts?.absent ?? 0;
        await this.tx.execute(
          sql`update ${ident(kind.name)} k
              set tags = k.tags || array(select n from unnest(a.names) n where not n = any(k.tags)), version = k.version + 1, updated_at = ${this.now.toISOString()}::timestamptz
              from (select x.entity_id, array_agg(distinct x.name) as names from ${input} x group by x.entity_id) a
              where k.id = a.entity_id and not (a.names <@ k.tags)`,
        );
      }
    }
  }
}

async function runImport(
  tx: Db,
  data: Record<string, unknown>,
  wipe: boolean,
  dryRun: boolean,
  now: Date,
  events?: ImportEvents,
): Promise<ImportRun> {
  await tx.execute(sql`select pg_advisory_xact_lock(${INVENTORY_IMPORT_LOCK})`);
  if (wipe) await wipeInventory(tx, true);
  const run = new ImportRun(tx, dryRun, now, events);
  for (const kind of KINDS) {
    const rows = data[kind.key];
    if (Array.isArray(rows)) await run.kind(kind, rows as Row[]);
  }
  if (Array.isArray(data.entity_tags)) await run.entityTags(data.entity_tags as Row[]);
  if (["hardware", "racks", "rack_reservations"].some((k) => Array.isArray(data[k]))) run.placements(await placementProblems(tx), data);
  return run;
}

/** Moves every id sequence past the largest id its table holds, so later creates do not collide. */
async function advanceSequences(tx: Db): Promise<void> {
  for (const kind of KINDS) {
    if (kind.pk.length !== 1 || kind.pk[0] !== "id") continue;
    // max(largest id, the sequence's last value): never moves a sequence back.
    await tx.execute(
      sql`select setval(q.seq, greatest(m.max_id, coalesce(s.last_value, 0)))
          from (select pg_get_serial_sequence(${kind.name}, 'id') as seq) q
          cross join (select max(id) as max_id from ${ident(kind.name)}) m
          join pg_sequences s on format('%I.%I', s.schemaname, s.sequencename) = q.seq
          where m.max_id is not null`,
    );
  }
}

class DryRunDone extends Error {
  readonly run: ImportRun;
  constructor(run: ImportRun) {
    super("dry run rolled back");
    this.run = run;
  }
}

/** What an import would do to `data`: the import's own path in a savepoint that is always rolled back. */
export async function importDiff(s: VerbScope, data: Record<string, unknown>, wipe = false): Promise<Record<string, KindDiff>> {
  try {
    await s.savepoint(async (tx) => {
      throw new DryRunDone(await runImport(tx, data, wipe, true, s.now));
    });
  } catch (err) {
    if (!(err instanceof DryRunDone)) throw err;
    return err.run.kinds;
  }
  throw new Error("unreachable: the dry run always rolls back");
}

/**
 * Merges already validated rows (validateDocument) in the caller's transaction: conflicts are a 422,
 * id sequences are moved past the written ids, the event rules see each change. Answers the per-kind
 * counts. The caller audits and emits (importInventory, the configuration apply).
 */
export async function importRows(s: VerbScope, data: Record<string, unknown>, wipe = false): Promise<Record<string, KindDiff>> {
  // A restore that wipes first sends no events: it is a new inventory, not a change to mirror row by row.
  const events = wipe ? undefined : { s, kinds: await kindsWithRules(s.tx) };
  const run = await runImport(s.tx, data, wipe, false, s.now, events);
  await advanceSequences(s.tx);
  return run.kinds;
}

function summary(kinds: Record<string, KindDiff>) {
  return Object.fromEntries(Object.entries(kinds).map(([k, d]) => [k, { created: d.created, updated: d.updated, unchanged: d.unchanged }]));
}

export const importInventory = defineVerb<ImportInput, ImportResult, { ignored: string[] }>(
  { scope: ADMIN_SCOPE, prepare: async (ctx, input) => validateDocument(input.data, ctx.clock.now()) },
  async (s, { data, wipe, dryRun, backupsAvailable }, { ignored }) => {
    const base = { dry_run: dryRun, wiped: wipe, ignored_keys: ignored };
    if (dryRun) return { imported: false, ...base, kinds: await importDiff(s, data, wipe) };
    const backup = wipe ? await requireVerifiedBackup(s.tx, s.now, RESTORE_WITH_WIPE, backupsAvailable) : null;
    const kinds = await importRows(s, data, wipe);
    s.audit({
      action: wipe ? "inventory_restore_with_wipe" : "inventory_import",
      category: "inventory",
      level: wipe ? "warning" : "info",
      entity_type: "inventory",
      diff: { wiped: wipe, backup: backup?.filename ?? null, counts: summary(kinds), ignored_keys: ignored },
    });
    s.emit("inventory", { action: "imported" });
    return { imported: true, ...base, kinds };
  },
);
