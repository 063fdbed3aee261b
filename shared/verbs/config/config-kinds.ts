// The kinds a lab file may describe (docs/cli.md, "Configuration as code"), derived from the inventory
// import's kinds (transfer/kinds.ts) so the columns, rules and references are the import's own: a
// file entry is an import row whose id is found by its key and whose `<x>_id` references are written
// as `<x>: <key>`. A column that would collide with a reference name (services' free-text
// `environment`) keeps its name and the reference is `<x>_key`.
import { KIND_BY_KEY, type Kind as ImportKind } from "../transfer/kinds.ts";

export interface ConfigRef {
  /** The field in the file (`site`). */
  field: string;
  /** The column it fills (`site_id`). */
  column: string;
  /** The kind whose key it names. */
  kind: string;
}

export interface ConfigLink {
  /** The field in the file: a list of keys (`depends_on`). */
  field: string;
  /** The link kind of the import document and its two columns. */
  linkKind: string;
  from: string;
  to: string;
  /** The kind the keys name. */
  kind: string;
}

export interface ConfigKind {
  key: string;
  table: string;
  /** The column whose value is an entry's key when it gives none. */
  nameField: string;
  /** The columns a file may set (the import's columns less the id, bookkeeping and reference ids). */
  fields: string[];
  refs: ConfigRef[];
  links: ConfigLink[];
  importKind: ImportKind;
}

/** Columns that are state or bookkeeping, never configuration. */
const NOT_CONFIG = new Set(["id", "version", "created_at", "updated_at", "status_changed_at"]);

const SPECS: { key: string; nameField: string; links?: ConfigLink[] }[] = [
  { key: "sites", nameField: "name" },
  { key: "environments", nameField: "name" },
  { key: "categories", nameField: "name" },
  { key: "racks", nameField: "name" },
  { key: "hardware", nameField: "name" },
  { key: "compute_units", nameField: "name" },
  { key: "storage", nameField: "name" },
  { key: "vlans", nameField: "name" },
  { key: "vrfs", nameField: "name" },
  { key: "prefixes", nameField: "prefix" },
  { key: "networks", nameField: "name" },
  { key: "ip_addresses", nameField: "address" },
  { key: "hardware_clusters", nameField: "name" },
  { key: "external_nodes", nameField: "name" },
  { key: "misc_items", nameField: "name" },
  {
    key: "services",
    nameField: "name",
    links: [{ field: "depends_on", linkKind: "service_dependencies", from: "service_id", to: "depends_on_id", kind: "services" }],
  },
];

function configKind(spec: (typeof SPECS)[number]): ConfigKind {
  const importKind = KIND_BY_KEY.get(spec.key);
  if (!importKind) throw new Error(`config kind ${spec.key} is no import kind`);
  const refColumns = new Set(Object.keys(importKind.refs));
  const fields = importKind.columns.filter((c) => !NOT_CONFIG.has(c) && !refColumns.has(c));
  const refs = Object.entries(importKind.refs).map(([column, kind]) => {
    const base = column.replace(/_id$/, "");
    return { field: fields.includes(base) ? `${base}_key` : base, column, kind };
  });
  return { key: spec.key, table: importKind.name, nameField: spec.nameField, fields, refs, links: spec.links ?? [], importKind };
}

/** In the import's order: a kind comes after the kinds it references. */
export const CONFIG_KINDS: ConfigKind[] = SPECS.map(configKind).sort(
  (a, b) => [...KIND_BY_KEY.keys()].indexOf(a.key) - [...KIND_BY_KEY.keys()].indexOf(b.key),
);
export const CONFIG_KIND_BY_KEY = new Map(CONFIG_KINDS.map((k) => [k.key, k]));

/** Field names that hold secrets: a file gives them only as `${env:NAME}` (the CLI substitutes them). */
export const SECRET_FIELD = /(password|passphrase|secret|token|community|api_key|private_key|credential)/i;
