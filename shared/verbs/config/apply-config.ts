// POST /config/apply (docs/cli.md, docs/adr/0500): a lab file's objects made true in ONE transaction.
// Each entry is found by its key: the ownership table (config_objects) first, else the one object of
// its kind with that name (adopted); otherwise it is created. Its fields are laid over the stored row
// and the rows that differ are written by the inventory import (transfer/import-inventory.ts: the same
// validation, reference, uniqueness and constraint checks, sequences, event rules), so a refusal
// anywhere rolls everything back. With `prune`, the owner's recorded objects the file no longer names
// are deleted. A dry run (the diff) walks the same path in a savepoint that is always rolled back.
import { sql } from "drizzle-orm";
import * as v from "valibot";
import { queryRows } from "../../db/database.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import { importDiff, importRows, validateDocument } from "../transfer/import-inventory.ts";
import { KIND_BY_KEY } from "../transfer/kinds.ts";
import { ADMIN_SCOPE, INVENTORY_IMPORT_LOCK } from "../transfer/scope.ts";
import { ident } from "../transfer/sql-parts.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { applyApiKinds, checkApiEntry, pruneApiKinds } from "./apply-api-kinds.ts";
import { adoptedId, type ConfigEntry, type FieldChange, withoutNulls } from "./config-entry.ts";
import { API_KIND_BY_KEY, API_KINDS } from "./api-kinds/index.ts";
import { CONFIG_KIND_BY_KEY, CONFIG_KINDS, type ConfigKind } from "./config-kinds.ts";

type Row = Record<string, unknown>;
export type { ConfigEntry, FieldChange } from "./config-entry.ts";

export interface ApplyInput {
  owner: string;
  objects: ConfigEntry[];
  prune: boolean;
  dryRun: boolean;
}

export interface Change {
  kind: string;
  key: string;
  id: number | null;
  action: "create" | "update" | "delete" | "unchanged";
  fields?: Record<string, FieldChange>;
}

export interface ApplyResult {
  applied: boolean;
  dry_run: boolean;
  owner: string;
  counts: { create: number; update: number; delete: number; unchanged: number };
  changes: Change[];
}

const MAX_ISSUES = 50;
const same = (a: unknown, b: unknown) => JSON.stringify(withoutNulls(a)) === JSON.stringify(withoutNulls(b));

/** A file's value as the import would store it (its field rule's defaults and transforms), for comparing. */
function asStored(kind: ConfigKind, field: string, value: unknown): unknown {
  const rule = (kind.importKind.schema as unknown as { entries?: Record<string, v.GenericSchema> }).entries?.[field];
  if (!rule) return value;
  const parsed = v.safeParse(rule, value);
  return parsed.success ? parsed.output : value;
}
const idList = (ids: number[]) => sql`(select (e)::int from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) e)`;

/** Checks every entry's kind, fields, references and key before the database is asked anything. */
export function checkEntries(objects: ConfigEntry[]): void {
  const issues: ValidationIssue[] = [];
  const add = (i: number, field: string, msg: string) => {
    if (issues.length < MAX_ISSUES) issues.push({ loc: ["body", "objects", i, field], msg, type: "value_error" });
  };
  const keys = new Map<string, number>();
  for (const [i, o] of objects.entries()) {
    const kind = CONFIG_KIND_BY_KEY.get(o.kind) ?? API_KIND_BY_KEY.get(o.kind);
    if (!kind) {
      add(i, "kind", `Unknown kind "${o.kind}"; one of: ${[...CONFIG_KINDS, ...API_KINDS].map((k) => k.key).join(", ")}.`);
      continue;
    }
    const id = `${o.kind}/${o.key}`;
    const first = keys.get(id);
    if (first !== undefined) add(i, "key", `${id} is given twice (also object ${first}).`);
    keys.set(id, i);
  }
  for (const [i, o] of objects.entries()) {
    const apiKind = API_KIND_BY_KEY.get(o.kind);
    if (apiKind) checkApiEntry(o, apiKind, keys, (field, msg) => add(i, field, msg));
    const kind = CONFIG_KIND_BY_KEY.get(o.kind);
    if (!kind) continue;
    for (const [field, value] of Object.entries(o.fields)) {
      const ref = kind.refs.find((r) => r.field === field);
      const link = kind.links.find((l) => l.field === field);
      if (ref) {
        if (value !== null && (typeof value !== "string" || !keys.has(`${ref.kind}/${value}`)))
          add(i, field, `${o.kind}/${o.key}: ${field} names ${ref.kind}/${String(value)}, which the file does not describe.`);
      } else if (link) {
        if (!Array.isArray(value)) add(i, field, "Must be a list of keys.");
        else
          for (const k of value)
            if (typeof k !== "string" || !keys.has(`${link.kind}/${k}`))
              add(i, field, `${o.kind}/${o.key}: ${field} names ${link.kind}/${String(k)}, which the file does not describe.`);
      } else if (!kind.fields.includes(field)) {
        add(i, field, `${o.kind} has no field "${field}".`);
      }
    }
  }
  if (issues.length > 0) throw ApiError.validation(issues);
}

/** The ids the owner's ownership rows give, checked against the tables (a row deleted elsewhere is forgotten). */
async function ownedIds(s: VerbScope, owner: string): Promise<Map<string, number>> {
  const rows = await queryRows<{ kind: string; key: string; object_id: number }>(
    s.tx,
    sql`select kind, key, object_id from config_objects where owner = ${owner}`,
  );
  const found = new Map<string, number>();
  for (const kind of [...CONFIG_KINDS, ...API_KINDS]) {
    const mine = rows.filter((r) => r.kind === kind.key);
    if (mine.length === 0) continue;
    const live = await queryRows<{ id: number }>(
      s.tx,
      sql`select id from ${ident(kind.table)} where id in ${idList(mine.map((r) => r.object_id))}`,
    );
    const liveIds = new Set(live.map((r) => Number(r.id)));
    for (const r of mine) if (liveIds.has(Number(r.object_id))) found.set(`${r.kind}/${r.key}`, Number(r.object_id));
  }
  return found;
}

/** Objects of `kind` whose name field is one of `names`: the ones a file entry adopts. */
async function byName(s: VerbScope, kind: Pick<ConfigKind, "table" | "nameField">, names: string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  if (names.length === 0) return out;
  const rows = await queryRows<{ id: number; n: string }>(
    s.tx,
    sql`select id, ${ident(kind.nameField)}::text as n from ${ident(kind.table)}
        where ${ident(kind.nameField)}::text in (select jsonb_array_elements_text(${JSON.stringify(names)}::jsonb))`,
  );
  for (const r of rows) out.set(r.n, [...(out.get(r.n) ?? []), Number(r.id)]);
  return out;
}

async function storedRows(s: VerbScope, kind: ConfigKind, ids: number[]): Promise<Map<number, Row>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ row: Row }>(s.tx, sql`select to_jsonb(t) as row from ${ident(kind.table)} t where id in ${idList(ids)}`);
  return new Map(rows.map((r) => [Number(r.row.id), r.row]));
}

async function nextIds(s: VerbScope, kind: ConfigKind, n: number): Promise<number[]> {
  if (n === 0) return [];
  const rows = await queryRows<{ id: number }>(
    s.tx,
    sql`select nextval(pg_get_serial_sequence(${kind.table}, 'id'))::int as id from generate_series(1, ${n})`,
  );
  return rows.map((r) => Number(r.id));
}

/** Rewrites an import refusal's `data.<kind>.<index>` paths to the entries' `<kind>/<key>`. */
function inTermsOfKeys(err: unknown, rowKeys: Map<string, string[]>, idKeys: Map<string, Map<number, string>>): unknown {
  if (!(err instanceof ApiError) || err.code !== "VALIDATION_ERROR") return err;
  const name = (kind: string, index: number) => (rowKeys.get(kind)?.[index] ? `${kind}/${rowKeys.get(kind)![index]}` : `${kind}[${index}]`);
  const issues = (Array.isArray(err.detail) ? err.detail : []).map((d) => {
    const [, , kind, index, ...rest] = d.loc;
    if (typeof kind !== "string" || typeof index !== "number") return d;
    return { ...d, loc: ["body", "objects", name(kind, index), ...rest] };
  });
  const extra = { ...err.extra };
  if (typeof extra.kind === "string" && extra.id !== undefined) extra.key = idKeys.get(extra.kind)?.get(Number(extra.id)) ?? null;
  return new ApiError("VALIDATION_ERROR", issues, {
    ...extra,
    fields: Object.fromEntries(issues.map((i) => [i.loc.slice(2).join("."), i.msg])),
  });
}

export const applyConfig = defineVerb<ApplyInput, ApplyResult>(
  {
    scope: ADMIN_SCOPE,
    prepare: async (_ctx, input) => {
      checkEntries(input.objects);
      return undefined;
    },
  },
  async (s, { owner, objects, prune, dryRun }) => {
    await s.tx.execute(sql`select pg_advisory_xact_lock(${INVENTORY_IMPORT_LOCK})`);
    const owned = await ownedIds(s, owner);
    const ids = new Map<string, number>();
    const created = new Set<string>();
    const changes: Change[] = [];
    const data: Record<string, Row[]> = {};
    const rowKeys = new Map<string, string[]>();
    const idKeys = new Map<string, Map<number, string>>();
    const put = (kind: string, row: Row, key: string) => {
      (data[kind] ??= []).push(row);
      const keys = rowKeys.get(kind) ?? [];
      keys.push(key);
      rowKeys.set(kind, keys);
    };

    // 1. Every entry's id: owned, adopted by name, or new.
    for (const kind of CONFIG_KINDS) {
      const entries = objects.filter((o) => o.kind === kind.key);
      if (entries.length === 0) continue;
      const unowned = entries.filter((o) => !owned.has(`${o.kind}/${o.key}`));
      const names = await byName(
        s,
        kind,
        unowned.map((o) => String(o.fields[kind.nameField] ?? o.key)),
      );
      const fresh: ConfigEntry[] = [];
      for (const o of entries) {
        const id = `${o.kind}/${o.key}`;
        const mine = owned.get(id);
        if (mine !== undefined) ids.set(id, mine);
        else {
          const adopted = adoptedId(names.get(String(o.fields[kind.nameField] ?? o.key)) ?? [], id, kind.key);
          if (adopted !== undefined) ids.set(id, adopted);
          else fresh.push(o);
        }
      }
      const newIds = await nextIds(s, kind, fresh.length);
      fresh.forEach((o, i) => {
        ids.set(`${o.kind}/${o.key}`, newIds[i]!);
        created.add(`${o.kind}/${o.key}`);
      });
      idKeys.set(kind.key, new Map(entries.map((o) => [ids.get(`${o.kind}/${o.key}`)!, o.key])));
    }

    // 2. Rows: the stored row with the file's fields laid over it; references and links by key.
    for (const kind of CONFIG_KINDS) {
      const entries = objects.filter((o) => o.kind === kind.key);
      if (entries.length === 0) continue;
      const stored = await storedRows(
        s,
        kind,
        entries.map((o) => ids.get(`${o.kind}/${o.key}`)!),
      );
      const linkRows = new Map<string, Row[]>();
      for (const link of kind.links) {
        const present = await queryRows<Row>(
          s.tx,
          sql`select ${ident(link.from)} as a, ${ident(link.to)} as b from ${ident(linkTable(link.linkKind))} where ${ident(link.from)} in ${idList([...stored.keys()])}`,
        );
        linkRows.set(link.field, present);
      }
      for (const o of entries) {
        const id = ids.get(`${o.kind}/${o.key}`)!;
        const before = stored.get(id);
        const row: Row = { ...(before ?? {}), id };
        if (row[kind.nameField] === undefined && o.fields[kind.nameField] === undefined) row[kind.nameField] = o.key;
        const fieldChanges: Record<string, FieldChange> = {};
        for (const [field, value] of Object.entries(o.fields)) {
          const ref = kind.refs.find((r) => r.field === field);
          const link = kind.links.find((l) => l.field === field);
          if (link) continue;
          const column = ref ? ref.column : field;
          const next = ref ? (value === null ? null : ids.get(`${ref.kind}/${String(value)}`)!) : value;
          if (before && !same(before[column], ref ? next : asStored(kind, field, next)))
            fieldChanges[field] = { from: ref ? refKey(before[column], ref.kind, idKeys) : before[column], to: value };
          row[column] = next;
        }
        for (const link of kind.links) {
          const wanted = o.fields[link.field];
          if (!Array.isArray(wanted)) continue;
          const targetIds = wanted.map((k) => ids.get(`${link.kind}/${String(k)}`)!);
          const present = (linkRows.get(link.field) ?? []).filter((r) => Number(r.a) === id).map((r) => Number(r.b));
          const missing = targetIds.filter((t) => !present.includes(t));
          const extra = present.filter((p) => !targetIds.includes(p));
          for (const t of missing) put(link.linkKind, { [link.from]: id, [link.to]: t }, `${o.key}->${t}`);
          if (extra.length > 0 && !dryRun)
            await s.tx.execute(
              sql`delete from ${ident(linkTable(link.linkKind))} where ${ident(link.from)} = ${id} and ${ident(link.to)} in ${idList(extra)}`,
            );
          if (before && (missing.length > 0 || extra.length > 0))
            fieldChanges[link.field] = { from: present.map((p) => refKey(p, link.kind, idKeys)), to: wanted };
        }
        if (!before) {
          put(kind.key, withoutBookkeeping(row), o.key);
          changes.push({ kind: kind.key, key: o.key, id, action: "create" });
        } else if (Object.keys(fieldChanges).length > 0) {
          if (Object.keys(fieldChanges).some((f) => !kind.links.some((l) => l.field === f))) put(kind.key, nextVersion(row, s.now), o.key);
          changes.push({ kind: kind.key, key: o.key, id, action: "update", fields: fieldChanges });
        } else changes.push({ kind: kind.key, key: o.key, id, action: "unchanged" });
      }
    }

    // 3. Prune: the owner's objects the file no longer names, kinds in reverse order (dependents first).
    const named = new Set(objects.map((o) => `${o.kind}/${o.key}`));
    const gone = [...owned].filter(([k]) => !named.has(k));
    const pruned: Change[] = gone.map(([k, id]) => ({
      kind: k.slice(0, k.indexOf("/")),
      key: k.slice(k.indexOf("/") + 1),
      id,
      action: "delete" as const,
    }));

    // 4. Write (or, for the diff, check) through the import; then the ownership rows.
    try {
      validateDocument(data, s.now);
      if (dryRun) {
        const diff = await importDiff(s, data);
        const conflicts = Object.entries(diff).flatMap(([kind, d]) =>
          d.conflicts.map((c) => ({ loc: ["body", "data", kind, c.index], msg: `${kind} ${String(c.id)}: ${c.reason}`, type: "conflict" })),
        );
        if (conflicts.length > 0) throw ApiError.validation(conflicts);
      } else await importRows(s, data);
    } catch (err) {
      throw inTermsOfKeys(err, rowKeys, idKeys);
    }
    // 5. The API kinds (monitors, sinks, routes, status pages) through their own verbs, once the
    // inventory they name exists; pruned before the inventory they may name is.
    changes.push(...(await applyApiKinds(s, objects, owned, (kind, names) => byName(s, kind, names), { ids, idKeys }, dryRun)));
    if (prune) changes.push(...pruned);
    if (prune && !dryRun) {
      await pruneApiKinds(s, pruned);
      for (const kind of [...CONFIG_KINDS].reverse()) {
        const mine = pruned.filter((p) => p.kind === kind.key).map((p) => p.id!);
        if (mine.length > 0) await s.tx.execute(sql`delete from ${ident(kind.table)} where id in ${idList(mine)}`);
      }
    }
    if (!dryRun) {
      const entries = objects.map((o) => ({ owner, kind: o.kind, key: o.key, object_id: ids.get(`${o.kind}/${o.key}`)! }));
      if (entries.length > 0)
        await s.tx.execute(
          sql`insert into config_objects (owner, kind, key, object_id)
              select owner, kind, key, object_id from jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) as e(owner text, kind text, key text, object_id int)
              on conflict (owner, kind, key) do update set object_id = excluded.object_id, updated_at = now()
              where config_objects.object_id <> excluded.object_id`,
        );
      if (prune && pruned.length > 0)
        await s.tx.execute(
          sql`delete from config_objects where owner = ${owner} and (kind || '/' || key) in (select jsonb_array_elements_text(${JSON.stringify(pruned.map((p) => `${p.kind}/${p.key}`))}::jsonb))`,
        );
    }
    const counts = { create: 0, update: 0, delete: 0, unchanged: 0 };
    for (const c of changes) counts[c.action]++;
    if (!dryRun && counts.create + counts.update + counts.delete > 0) {
      s.audit({ action: "config_apply", category: "inventory", entity_type: "inventory", diff: { owner, counts, pruned: prune } });
      s.emit("inventory", { action: "imported" });
    }
    return { applied: !dryRun, dry_run: dryRun, owner, counts, changes };
  },
);

/** The table behind a link kind of the import document. */
function linkTable(linkKind: string): string {
  const kind = KIND_BY_KEY.get(linkKind);
  if (!kind) throw new Error(`${linkKind} is no import kind`);
  return kind.name;
}

function refKey(id: unknown, kind: string, idKeys: Map<string, Map<number, string>>): unknown {
  if (id === null || id === undefined) return null;
  return idKeys.get(kind)?.get(Number(id)) ?? `#${String(id)}`;
}

/** A new row takes the table's defaults for its bookkeeping columns (version 1, timestamps now). */
function withoutBookkeeping(row: Row): Row {
  const { version: _v, created_at: _c, updated_at: _u, ...rest } = row;
  return rest;
}

/** A changed row: its next version (so an If-Match held elsewhere fails) and the time of the change. */
function nextVersion(row: Row, now: Date): Row {
  return { ...row, version: Number(row.version ?? 0) + 1, updated_at: now.toISOString() };
}
