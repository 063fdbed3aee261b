// The malformed requests the fuzz suite sends, derived from one operation of the served OpenAPI
// document: each path parameter, query parameter and top-level body field in turn gets values that a
// careless client or an attacker sends (NUL, lone surrogates, integers past PostgreSQL's range, wrong
// types, oversized text), and the body itself arrives broken. Path parameters that are not being fuzzed
// name a row that does not exist, so no variant can change a real row even if it were accepted.

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface Operation {
  method: string;
  /** OpenAPI path: /api/v1/hardware/{hardware_id} */
  path: string;
  pathParams: string[];
  queryParams: string[];
  body?: JsonSchema;
  /** The success answer's documented content type, when it has one. */
  okType?: string;
}

export interface Variant {
  what: string;
  url: string;
  init: RequestInit;
}

const MISSING_ROW = "999999";

const PATH_VALUES = [
  "0",
  "-1",
  "2147483648",
  "99999999999999999999",
  "abc",
  "1.5",
  "%00",
  "a%00b",
  "%ED%A0%80",
  "%F0%9F%92%A9",
  "x".repeat(2000),
  "%2e%2e",
];
const QUERY_VALUES = [
  "",
  "%00",
  "a%00b",
  "%ED%A0%80",
  "%EF%BF%BF",
  "-1",
  "2147483648",
  "99999999999999999999",
  "abc",
  "1e400",
  "x".repeat(5000),
];
const FIELD_VALUES: unknown[] = [
  "a\u0000b",
  "a\ud800b",
  "\udfff",
  2147483648,
  -2147483649,
  1e308,
  -1,
  1.5,
  true,
  null,
  [],
  {},
  "x".repeat(100_000),
  { "\u0000": 1 },
  ["a\u0000b"],
];
const RAW_BODIES: [string, string][] = [
  ["{", "application/json"],
  ["[]", "application/json"],
  ["null", "application/json"],
  ['"text"', "application/json"],
  ["1e400", "application/json"],
  ['{"a":"\\u0000"}', "application/json"],
  [`${"[".repeat(5000)}${"]".repeat(5000)}`, "application/json"],
  ["name=x", "text/plain"],
];
const IF_MATCH_VALUES = ['"2147483648"', '"99999999999999999999"', '"abc"', 'W/"-1"', "*"];

/** A minimal value the schema accepts, as far as a JSON Schema can tell (patterns are not honoured). */
export function sample(s: JsonSchema | undefined, depth = 0): unknown {
  if (!s || depth > 6) return null;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length) return sample(alternatives.find((a) => a.type !== "null") ?? alternatives[0], depth + 1);
  if (s.allOf?.length) return sample(Object.assign({}, ...s.allOf) as JsonSchema, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "string":
      if (s.format === "email") return "fuzz@example.com";
      if (s.format === "date-time") return "2026-01-01T00:00:00Z";
      if (s.format === "ipv4" || s.format === "ip") return "127.0.0.1";
      if (s.format === "uri" || s.format === "url") return "http://127.0.0.1/";
      return "fuzz".padEnd(Math.max(4, s.minLength ?? 0), "z");
    case "integer":
    case "number":
      return Math.max(1, s.minimum ?? 1, (s.exclusiveMinimum ?? 0) + 1);
    case "boolean":
      return true;
    case "array":
      return (s.minItems ?? 0) > 0 ? [sample(s.items, depth + 1)] : [];
    case "object":
      return Object.fromEntries((s.required ?? []).map((k) => [k, sample(s.properties?.[k], depth + 1)]));
    default:
      return null;
  }
}

function url(op: Operation, params: Record<string, string>, query = ""): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => params[name] ?? MISSING_ROW);
  return query ? `${path}?${query}` : path;
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Every malformed request for one operation; empty for an operation that takes no input at all. */
export function variants(op: Operation): Variant[] {
  const out: Variant[] = [];
  const base = op.body ? sample(op.body) : undefined;
  const baseBody = (): RequestInit =>
    base === undefined ? {} : { body: JSON.stringify(base), headers: { "content-type": "application/json" } };
  const send = (what: string, u: string, init: RequestInit) => out.push({ what, url: u, init: { method: op.method, ...init } });

  for (const p of op.pathParams)
    for (const value of PATH_VALUES) send(`path ${p}=${value.slice(0, 20)}`, url(op, { [p]: value }), baseBody());
  for (const q of op.queryParams) {
    for (const value of QUERY_VALUES) send(`query ${q}=${value.slice(0, 20)}`, url(op, {}, `${q}=${value}`), baseBody());
    send(`query ${q} twice`, url(op, {}, `${q}=1&${q}=%00`), baseBody());
  }
  if (op.body) {
    for (const [raw, type] of RAW_BODIES)
      send(`body ${raw.slice(0, 20)} as ${type}`, url(op, {}), { body: raw, headers: { "content-type": type } });
    const fields = Object.keys(op.body.properties ?? {});
    const object = base !== null && typeof base === "object" && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
    for (const field of fields)
      for (const value of FIELD_VALUES) {
        const label = typeof value === "string" ? JSON.stringify(value.slice(0, 12)) : JSON.stringify(value)?.slice(0, 20);
        send(`body ${field}=${label}`, url(op, {}), {
          body: JSON.stringify({ ...object, [field]: value }),
          headers: { "content-type": "application/json" },
        });
      }
    send("body with a NUL field name", url(op, {}), {
      body: JSON.stringify({ ...object, "a\u0000": 1 }),
      headers: { "content-type": "application/json" },
    });
  }
  if (WRITES.has(op.method) && op.pathParams.length > 0)
    for (const value of IF_MATCH_VALUES) {
      const init = baseBody();
      send(`If-Match ${value}`, url(op, {}), {
        ...init,
        headers: { ...(init.headers as Record<string, string> | undefined), "if-match": value },
      });
    }
  return out;
}

interface OpenApiOperation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

/** The operations of a served OpenAPI document, with what the fuzz needs of each. */
export function operations(doc: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [method, o] of Object.entries(methods)) {
      const params = o.parameters ?? [];
      const ok = Object.entries(o.responses ?? {}).find(([status]) => status.startsWith("2"))?.[1];
      const op: Operation = {
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        queryParams: params.filter((p) => p.in === "query").map((p) => p.name),
      };
      const body = o.requestBody?.content?.["application/json"]?.schema;
      if (body) op.body = body;
      const okType = Object.keys(ok?.content ?? {})[0];
      if (okType) op.okType = okType;
      ops.push(op);
    }
  return ops;
}
