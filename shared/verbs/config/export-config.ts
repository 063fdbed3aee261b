// GET /config/export: the inventory as a lab file (docs/cli.md), so a lab can start from what exists.
// Each object is written under its kind with its configuration fields (nulls left out), its key (the
// owner's recorded key, else its name; `key:` is written only when it differs from the name, or when two
// objects share a name: `<name>#<id>`), references and links by key. Applying the result to the same
// server changes nothing (every entry is adopted by name); applying it to an empty one rebuilds it.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { ADMIN_SCOPE } from "../transfer/scope.ts";
import { ident } from "../transfer/sql-parts.ts";
import { KIND_BY_KEY } from "../transfer/kinds.ts";
import { defineRead } from "../verb.ts";
import { mapSecrets } from "./api-kind.ts";
import { API_KINDS } from "./api-kinds/index.ts";
import { withoutNulls } from "./config-entry.ts";
import { CONFIG_KINDS } from "./config-kinds.ts";

type Row = Record<string, unknown>;

export const exportConfig = defineRead<{ owner: string }, Record<string, unknown>>({ scope: ADMIN_SCOPE }, async (ctx, { owner }) => {
  const db = ctx.db;
  const recorded = await queryRows<{ kind: string; key: string; object_id: number }>(
    db,
    sql`select kind, key, object_id from config_objects where owner = ${owner}`,
  );
  /** Each object's key: the owner's recorded one, else its name (`<name>#<id>` where names repeat; `<kind>-<id>` without one). */
  const entryKeys = (kind: string, rows: { id: number; name: string | null }[]): Map<number, string> => {
    const mine = new Map(recorded.filter((r) => r.kind === kind).map((r) => [Number(r.object_id), r.key]));
    const count = new Map<string, number>();
    for (const { name } of rows) if (name !== null) count.set(name, (count.get(name) ?? 0) + 1);
    const fallback = ({ id, name }: { id: number; name: string | null }) =>
      name === null ? `${kind.replace(/s$/, "")}-${id}` : (count.get(name) ?? 0) > 1 ? `${name}#${id}` : name;
    return new Map(rows.map((r) => [r.id, mine.get(r.id) ?? fallback(r)]));
  };
  const rowsByKind = new Map<string, Row[]>();
  const keys = new Map<string, Map<number, string>>();
  for (const kind of CONFIG_KINDS) {
    const rows = (await queryRows<{ row: Row }>(db, sql`select to_jsonb(t) as row from ${ident(kind.table)} t order by id`)).map(
      (r) => r.row,
    );
    rowsByKind.set(kind.key, rows);
    keys.set(
      kind.key,
      entryKeys(
        kind.key,
        rows.map((r) => ({ id: Number(r.id), name: String(r[kind.nameField]) })),
      ),
    );
  }
  // The API kinds' keys too, before any entry is written: a route names a sink, a page a monitor.
  for (const kind of API_KINDS) {
    const rows = await queryRows<{ id: number; name: string | null }>(
      db,
      kind.nameField
        ? sql`select id, ${ident(kind.nameField)}::text as name from ${ident(kind.table)} order by id`
        : sql`select id, null::text as name from ${ident(kind.table)} order by id`,
    );
    keys.set(
      kind.key,
      entryKeys(
        kind.key,
        rows.map((r) => ({ id: Number(r.id), name: r.name })),
      ),
    );
  }
  const keyOf = (kind: string, id: number) => keys.get(kind)?.get(id) ?? `#${id}`;
  const doc: Record<string, unknown> = { owner };
  for (const kind of CONFIG_KINDS) {
    const rows = rowsByKind.get(kind.key) ?? [];
    if (rows.length === 0) continue;
    const links = new Map<string, Map<number, string[]>>();
    for (const link of kind.links) {
      const table = KIND_BY_KEY.get(link.linkKind)!.name;
      const pairs = await queryRows<{ a: number; b: number }>(
        db,
        sql`select ${ident(link.from)} as a, ${ident(link.to)} as b from ${ident(table)} order by 1, 2`,
      );
      const byFrom = new Map<number, string[]>();
      for (const p of pairs)
        byFrom.set(Number(p.a), [...(byFrom.get(Number(p.a)) ?? []), keys.get(link.kind)?.get(Number(p.b)) ?? `#${p.b}`]);
      links.set(link.field, byFrom);
    }
    doc[kind.key] = rows.map((r) => {
      const id = Number(r.id);
      const key = keys.get(kind.key)!.get(id)!;
      const entry: Row = {};
      if (key !== String(r[kind.nameField])) entry.key = key;
      for (const field of kind.fields) {
        const value = r[field];
        if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
        entry[field] = withoutNulls(value);
      }
      for (const ref of kind.refs) {
        const target = r[ref.column];
        if (target !== null && target !== undefined) entry[ref.field] = keys.get(ref.kind)?.get(Number(target)) ?? `#${String(target)}`;
      }
      for (const link of kind.links) {
        const targets = links.get(link.field)?.get(id);
        if (targets?.length) entry[link.field] = targets;
      }
      return entry;
    });
  }
  for (const kind of API_KINDS) {
    const entryKeys = keys.get(kind.key)!;
    if (entryKeys.size === 0) continue;
    // Secrets are never exported: each one set is a ${env:NAME} placeholder to fill in before applying.
    const views = await kind.read(ctx, [...entryKeys.keys()], keyOf, false);
    doc[kind.key] = [...entryKeys].flatMap(([id, key]) => {
      const view = views.get(id);
      if (!view) return [];
      const entry: Row = {};
      if (!kind.nameField || key !== String(view[kind.nameField])) entry.key = key;
      for (const [field, value] of Object.entries(view)) {
        if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
        entry[field] = withoutNulls(mapSecrets(kind, field, value, (path) => `\${env:${envName(kind.key, key, path)}}`));
      }
      return [entry];
    });
  }
  return doc;
});

/** The placeholder variable of a secret: kind, key and path, upper-case, other characters as `_`. */
function envName(kind: string, key: string, path: string[]): string {
  return [kind, key, ...path.filter((p) => p !== "config" && p !== "provider_config")]
    .join("_")
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}
