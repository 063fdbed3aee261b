// The API kinds' part of POST /config/apply (docs/adr/0507): after the inventory rows are written, each
// monitor, sink, route and status page entry is found (owned, adopted by name, or new), compared with
// the stored object field by field, and made true through the kind's own verbs nested in the apply's
// transaction, so any refusal rolls back the whole apply. A dry run compares and checks each body
// against the API's rules, and writes nothing.
import { canonicalJson } from "../../audit/canonical.ts";
import type { VerbScope } from "../verb.ts";
import { type ApiConfigKind, asEntry, checkedBody, mapSecrets, type Row, withoutOmittedSecrets } from "./api-kind.ts";
import { API_KIND_BY_KEY, API_KINDS } from "./api-kinds/index.ts";
import { adoptedId, type ConfigEntry, type FieldChange, withoutNulls } from "./config-entry.ts";

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
// Canonical (sorted keys): a stored jsonb object comes back in PostgreSQL's key order, not the file's.
const sameValue = (a: unknown, b: unknown) => canonicalJson(withoutNulls(a)) === canonicalJson(withoutNulls(b));

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
  const remember = (kind: string, key: string, id: number) => {
    ids.set(`${kind}/${key}`, id);
    const keys = idKeys.get(kind) ?? new Map<number, string>();
    keys.set(id, key);
    idKeys.set(kind, keys);
  };
  // 1. Every entry's id: owned or adopted by name (created ones get theirs when written, below).
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
      const entry = `${o.kind}/${o.key}`;
      const id =
        owned.get(entry) ?? (nameField ? adoptedId(names.get(String(o.fields[nameField] ?? o.key)) ?? [], entry, kind.key) : undefined);
      if (id !== undefined) remember(kind.key, o.key, id);
    }
  }
  // 2. In order, each kind's entries compared with what is stored and written through the kind's verbs.
  for (const kind of API_KINDS) {
    const entries = objects.filter((o) => o.kind === kind.key);
    if (entries.length === 0) continue;
    const stored = await kind.read(
      ctx,
      entries.flatMap((o) => ids.get(`${o.kind}/${o.key}`) ?? []),
      keyOf,
      true,
    );
    const ordered = kind.order ? (kind.order(entries) as ConfigEntry[]) : entries;
    for (const o of ordered) {
      const entry = `${o.kind}/${o.key}`;
      const id = ids.get(entry);
      const before = id === undefined ? undefined : stored.get(id);
      const fields: Row = { ...o.fields };
      if (kind.nameField && fields[kind.nameField] === undefined && !before) fields[kind.nameField] = o.key;
      if (!before || id === undefined) {
        const body = checkedBody(kind.createRule, kind.body(fields, idOf), entry);
        const created = dryRun ? null : await asEntry(entry, () => kind.create(ctx, body));
        if (created !== null) remember(kind.key, o.key, created);
        changes.push({ kind: kind.key, key: o.key, id: created, action: "create" });
        continue;
      }
      const fieldChanges: Record<string, FieldChange> = {};
      const changed: Row = {};
      for (const [field, value] of Object.entries(fields)) {
        const kept = withoutOmittedSecrets(kind, field, before[field], value);
        const was = kind.comparable ? kind.comparable(field, kept, value) : kept;
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

/** Deletes the owner's API objects the file no longer names, through their verbs, dependents first. */
export async function pruneApiKinds(s: VerbScope, gone: { kind: string; id: number | null; key: string }[]): Promise<void> {
  const ctx = { ...s.ctx, db: s.tx };
  for (const kind of [...API_KINDS].reverse())
    for (const g of gone.filter((x) => x.kind === kind.key)) await asEntry(`${g.kind}/${g.key}`, () => kind.remove(ctx, g.id!));
}

export const isApiKind = (kind: string) => API_KIND_BY_KEY.has(kind);
