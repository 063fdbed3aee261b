// The API kinds' part of POST /config/apply (docs/adr/0507): after the inventory rows are written, each
// monitor, sink, route and status page entry is found (owned, adopted by name, or new), compared with
// the stored object field by field, and made true through the kind's own verbs nested in the apply's
// transaction, so any refusal rolls back the whole apply. A dry run compares and checks each body
// against the API's rules, and writes nothing.
import { canonicalJson } from "../../audit/canonical.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { VerbScope } from "../verb.ts";
import { type ApiConfigKind, asEntry, checkedBody, mapSecrets, type Row } from "./api-kind.ts";
import { API_KIND_BY_KEY, API_KINDS } from "./api-kinds/index.ts";
import type { ConfigEntry, FieldChange } from "./config-entry.ts";

export interface ApiChange {
  kind: string;
  key: string;
  id: number | null;
  action: "create" | "update" | "unchanged";
  fields?: Record<string, FieldChange>;
}

/** What the apply knows: entries' ids by `<kind>/<key>` (filled in here as objects are created) and keys by id. */
export interface Lookup {
  ids: Map<string, number>;
  idKeys: Map<string, Map<number, string>>;
}

const MASKED = "********";
/** A value with its secrets masked: a diff never carries a secret. */
const masked = (kind: ApiConfigKind, field: string, value: unknown) => mapSecrets(kind, field, value, () => MASKED);

/** Unknown fields of an API kind's entry, and an entry without a key where the kind has no name. */
export function checkApiEntry(
  o: ConfigEntry,
  kind: ApiConfigKind,
  keys: ReadonlyMap<string, number>,
  at: (field: string, msg: string) => void,
): void {
  if (kind.nameField === null && o.fields.key === undefined && o.key === "") at("key", `${o.kind} entries have no name: give each a key.`);
  for (const field of Object.keys(o.fields)) if (!(field in kind.schema)) at(field, `${o.kind} has no field "${field}".`);
  for (const named of kind.references(o.fields))
    if (!keys.has(`${named.kind}/${named.key}`))
      at(
        named.path.split(".")[0]!,
        `${o.kind}/${o.key}: ${named.path} names ${named.kind}/${named.key}, which the file does not describe.`,
      );
}

const valueAt = (value: unknown, path: string[]) => path.slice(1).reduce<unknown>((v, k) => (v as Row | undefined)?.[k], value);
const sameValue = (a: unknown, b: unknown) => canonicalJson(withoutNullMembers(a)) === canonicalJson(withoutNullMembers(b));
function withoutNullMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullMembers);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).flatMap(([k, x]) => (x == null ? [] : [[k, withoutNullMembers(x)]])));
  return value ?? null;
}

/** Writes (or, in a dry run, compares and checks) every API kind's entries; answers their changes. */
export async function applyApiKinds(
  s: VerbScope,
  objects: ConfigEntry[],
  owned: Map<string, number>,
  adopt: (kind: { key: string; table: string; nameField: string }, names: string[]) => Promise<Map<string, number[]>>,
  lookup: Lookup,
  dryRun: boolean,
): Promise<ApiChange[]> {
  const ctx = { ...s.ctx, db: s.tx };
  const { ids, idKeys } = lookup;
  const keyOf = (kind: string, id: number) => idKeys.get(kind)?.get(id) ?? `#${id}`;
  const idOf = (kind: string, key: string) => ids.get(`${kind}/${key}`);
  const changes: ApiChange[] = [];
  // 1. Every entry's id: owned or adopted by name (created ones get theirs when written, below).
  const existing = new Map<string, number>();
  for (const kind of API_KINDS) {
    const entries = objects.filter((o) => o.kind === kind.key);
    if (entries.length === 0) continue;
    const unowned = entries.filter((o) => !owned.has(`${o.kind}/${o.key}`));
    const nameField = kind.nameField;
    const names = nameField
      ? await adopt(
          { key: kind.key, table: kind.table, nameField },
          unowned.map((o) => String(o.fields[nameField] ?? o.key)),
        )
      : new Map<string, number[]>();
    for (const o of entries) {
      const id = `${o.kind}/${o.key}`;
      const mine = owned.get(id) ?? adoptOne(names, nameField ? String(o.fields[nameField] ?? o.key) : null, id, kind.key);
      if (mine !== undefined) existing.set(id, mine);
    }
    for (const o of entries) {
      const id = existing.get(`${o.kind}/${o.key}`);
      if (id === undefined) continue;
      ids.set(`${o.kind}/${o.key}`, id);
      const keys = idKeys.get(kind.key) ?? new Map<number, string>();
      keys.set(id, o.key);
      idKeys.set(kind.key, keys);
    }
  }
  // 2. In order, each kind's entries compared with what is stored and written through the kind's verbs.
  for (const kind of API_KINDS) {
    const entries = objects.filter((o) => o.kind === kind.key);
    if (entries.length === 0) continue;
    const stored = await kind.read(
      ctx,
      entries.flatMap((o) => existing.get(`${o.kind}/${o.key}`) ?? []),
      keyOf,
      true,
    );
    const ordered = kind.order ? (kind.order(entries) as ConfigEntry[]) : entries;
    for (const o of ordered) {
      const entry = `${o.kind}/${o.key}`;
      const id = existing.get(entry);
      const before = id === undefined ? undefined : stored.get(id);
      const fields: Row = { ...o.fields };
      if (kind.nameField && fields[kind.nameField] === undefined && !before) fields[kind.nameField] = o.key;
      if (!before || id === undefined) {
        const body = checkedBody(kind.createRule, kind.body(fields, idOf), entry);
        const created = dryRun ? null : await asEntry(entry, () => kind.create(ctx, body));
        if (created !== null) {
          ids.set(entry, created);
          const keys = idKeys.get(kind.key) ?? new Map<number, string>();
          keys.set(created, o.key);
          idKeys.set(kind.key, keys);
        }
        changes.push({ kind: kind.key, key: o.key, id: created, action: "create" });
        continue;
      }
      const fieldChanges: Record<string, FieldChange> = {};
      const changed: Row = {};
      for (const [field, value] of Object.entries(fields)) {
        const was = kind.comparable ? kind.comparable(field, before[field], value) : before[field];
        if (sameValue(was, value)) continue;
        changed[field] = value;
        // A secret that differs is told apart from one that does not, never shown.
        const to = mapSecrets(kind, field, value, (path) =>
          sameValue(valueAt(before[field], path), valueAt(value, path)) ? MASKED : `${MASKED} (new)`,
        );
        fieldChanges[field] = { from: masked(kind, field, before[field]), to };
      }
      if (Object.keys(changed).length === 0) {
        changes.push({ kind: kind.key, key: o.key, id, action: "unchanged" });
        continue;
      }
      const body = checkedBody(kind.patchRule, kind.body(changed, idOf), entry);
      if (!dryRun) await asEntry(entry, () => kind.update(ctx, id, body));
      changes.push({ kind: kind.key, key: o.key, id, action: "update", fields: fieldChanges });
    }
  }
  return changes;
}

function adoptOne(names: Map<string, number[]>, name: string | null, entry: string, kind: string): number | undefined {
  if (name === null) return undefined;
  const same = names.get(name) ?? [];
  if (same.length > 1) {
    const issue: ValidationIssue = {
      loc: ["body", "objects", entry],
      msg: `${same.length} ${kind} objects are named so (ids ${same.join(", ")}): give the entry the name of one only.`,
      type: "conflict",
    };
    throw ApiError.validation([issue]);
  }
  return same[0];
}

/** Deletes the owner's API objects the file no longer names, through their verbs, dependents first. */
export async function pruneApiKinds(s: VerbScope, gone: { kind: string; id: number | null; key: string }[]): Promise<void> {
  const ctx = { ...s.ctx, db: s.tx };
  for (const kind of [...API_KINDS].reverse())
    for (const g of gone.filter((x) => x.kind === kind.key)) await asEntry(`${g.kind}/${g.key}`, () => kind.remove(ctx, g.id!));
}

export const isApiKind = (kind: string) => API_KIND_BY_KEY.has(kind);
