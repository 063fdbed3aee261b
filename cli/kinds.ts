// The one table of resource kinds, derived from the server's OpenAPI document (GET /api/openapi.json):
// a kind is a collection path under /api/v1 whose GET answers the list envelope ({items, total, ...});
// its item path is the same path plus one `{param}` segment. Every generic command (get, list,
// describe, create, edit, delete) reads this table, so a kind the server gains is a kind the CLI has.
// Pure: no I/O (the document is fetched, and the table cached, by session.ts).

type Schema = Record<string, unknown>;

export interface Operation {
  method: string;
  path: string;
  /** Properties of the JSON request body, when it has one. */
  bodyProperties?: Record<string, Schema>;
  description?: string;
}

export interface Kind {
  /** What the user types: the last path segment, unless another kind has it (then the hyphenated path). */
  name: string;
  /** Other spellings accepted (the hyphenated path, the singular). */
  aliases: string[];
  /** The collection path, e.g. /api/v1/hardware. */
  path: string;
  /** The item path, e.g. /api/v1/hardware/{hardware_id}. */
  itemPath?: string;
  list: Operation;
  /**
   * The list also answers NDJSON (its 200 response has application/x-ndjson): every row in one streamed
   * request (docs/adr/0503) rather than page after page.
   */
  streams: boolean;
  /** The list's query parameters other than paging and sorting (its filters). */
  filters: string[];
  sorts: string[];
  create?: Operation;
  get?: Operation;
  update?: Operation;
  replace?: Operation;
  delete?: Operation;
  /** Scalar fields of a list item, in the document's order. */
  fields: string[];
  /** The field naming an object for people (name, slug, address...), when the kind has one. */
  nameField?: string;
  /** The table's default columns. */
  columns: string[];
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string; schema?: Schema }[];
        requestBody?: unknown;
        responses?: unknown;
        description?: string;
        summary?: string;
      }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
}

const NAME_FIELDS = ["name", "slug", "key", "label", "title", "address", "prefix", "cidr", "email", "hostname", "filename"];
const PREFERRED = [
  "status",
  "effective_status",
  "state",
  "kind",
  "type",
  "check_type",
  "role",
  "severity",
  "cidr",
  "ip_address",
  "host",
  "enabled",
  "vlan_id",
  "site_name",
  "network_name",
  "uptime_pct_24h",
  "occurred_at",
];
const PAGING = new Set(["limit", "offset", "sort", "direction", "q", "cursor"]);
const MAX_DEFAULT_COLUMNS = 6;

function resolve(doc: OpenApiDoc, s: unknown): Schema | undefined {
  if (!s || typeof s !== "object") return undefined;
  const ref = (s as { $ref?: string }).$ref;
  if (ref?.startsWith("#/components/schemas/")) return doc.components?.schemas?.[ref.slice("#/components/schemas/".length)];
  return s as Schema;
}

function jsonSchemaOf(doc: OpenApiDoc, holder: unknown): Schema | undefined {
  const content = (holder as { content?: Record<string, { schema?: unknown }> } | undefined)?.content;
  return resolve(doc, content?.["application/json"]?.schema);
}

function propertiesOf(doc: OpenApiDoc, s: Schema | undefined): Record<string, Schema> {
  const props = (s?.properties ?? {}) as Record<string, unknown>;
  const out: Record<string, Schema> = {};
  for (const [k, v] of Object.entries(props)) out[k] = resolve(doc, v) ?? {};
  return out;
}

/** True for a schema whose values print in one table cell (string, number, boolean, or null of those). */
export function isScalar(s: Schema): boolean {
  const t = s.type;
  if (t === "string" || t === "number" || t === "integer" || t === "boolean") return true;
  if (Array.isArray(s.enum) || "const" in s) return true;
  const any = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  return Array.isArray(any) && any.every((x) => x.type === "null" || isScalar(x));
}

function listItemSchema(doc: OpenApiDoc, op: { responses?: unknown }): Record<string, Schema> | undefined {
  const ok = (op.responses as Record<string, unknown> | undefined)?.["200"];
  const envelope = jsonSchemaOf(doc, ok);
  const items = propertiesOf(doc, envelope).items;
  if (items?.type !== "array" || !("total" in propertiesOf(doc, envelope))) return undefined;
  return propertiesOf(doc, resolve(doc, items.items));
}

function streamsNdjson(op: { responses?: unknown }): boolean {
  const ok = (op.responses as Record<string, { content?: Record<string, unknown> }> | undefined)?.["200"];
  return ok?.content?.["application/x-ndjson"] !== undefined;
}

function operation(doc: OpenApiDoc, path: string, method: string): Operation | undefined {
  const op = doc.paths[path]?.[method];
  if (!op) return undefined;
  const body = jsonSchemaOf(doc, op.requestBody);
  return {
    method: method.toUpperCase(),
    path,
    ...(body ? { bodyProperties: propertiesOf(doc, body) } : {}),
    ...(op.description ? { description: op.description } : {}),
  };
}

export function deriveKinds(doc: OpenApiDoc): Kind[] {
  const found: Omit<Kind, "name" | "aliases">[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (!path.startsWith("/api/v1/") || path.includes("{") || !methods.get) continue;
    const fieldsSchema = listItemSchema(doc, methods.get);
    if (!fieldsSchema) continue;
    const itemPath = Object.keys(doc.paths).find((p) => p.startsWith(`${path}/{`) && p.indexOf("/", path.length + 1) === -1);
    const params = (methods.get.parameters ?? []).filter((p) => p.in === "query");
    const sortParam = params.find((p) => p.name === "sort")?.schema;
    const fields = Object.entries(fieldsSchema)
      .filter(([, s]) => isScalar(s))
      .map(([k]) => k);
    const nameField = NAME_FIELDS.find((f) => fields.includes(f));
    const columns = [
      ...(fields.includes("id") ? ["id"] : []),
      ...(nameField ? [nameField] : []),
      ...PREFERRED.filter((f) => fields.includes(f) && f !== nameField),
    ].slice(0, MAX_DEFAULT_COLUMNS);
    const create = operation(doc, path, "post");
    const get = itemPath ? operation(doc, itemPath, "get") : undefined;
    const update = itemPath ? operation(doc, itemPath, "patch") : undefined;
    const replace = itemPath ? operation(doc, itemPath, "put") : undefined;
    const del = itemPath ? operation(doc, itemPath, "delete") : undefined;
    found.push({
      path,
      ...(itemPath ? { itemPath } : {}),
      list: operation(doc, path, "get")!,
      streams: streamsNdjson(methods.get),
      filters: params.map((p) => p.name).filter((n) => !PAGING.has(n)),
      sorts: Array.isArray(sortParam?.enum) ? (sortParam.enum as string[]) : [],
      ...(create ? { create } : {}),
      ...(get ? { get } : {}),
      ...(update ? { update } : {}),
      ...(replace ? { replace } : {}),
      ...(del ? { delete: del } : {}),
      fields,
      ...(nameField ? { nameField } : {}),
      columns: columns.length > 0 ? columns : fields.slice(0, MAX_DEFAULT_COLUMNS),
    });
  }
  // The shortest path takes the short name; a longer path with the same last segment keeps its full name.
  found.sort((a, b) => a.path.split("/").length - b.path.split("/").length || a.path.localeCompare(b.path));
  const taken = new Set<string>();
  const kinds: Kind[] = [];
  for (const k of found) {
    const full = k.path.slice("/api/v1/".length).replaceAll("/", "-");
    const last = k.path.slice(k.path.lastIndexOf("/") + 1);
    const name = taken.has(last) ? full : last;
    taken.add(name);
    const aliases = [full, ...(name.endsWith("s") ? [name.slice(0, -1)] : []), ...(name.endsWith("es") ? [name.slice(0, -2)] : [])];
    kinds.push({ name, aliases: [...new Set(aliases.filter((a) => a !== name))], ...k });
  }
  return kinds.sort((a, b) => a.name.localeCompare(b.name));
}

/** The kind a word names (its name or an alias); undefined when none. */
export function findKind(kinds: Kind[], word: string): Kind | undefined {
  const w = word.toLowerCase();
  return kinds.find((k) => k.name === w) ?? kinds.find((k) => k.aliases.includes(w));
}

/** The item path with its one parameter filled in. */
export function itemUrl(kind: Kind, id: string | number): string {
  if (!kind.itemPath) throw new Error(`${kind.name} has no item path`);
  return kind.itemPath.replace(/\{[^}]+\}/, encodeURIComponent(String(id)));
}
