// Lab files (docs/cli.md, "Configuration as code"): YAML (or JSON) files, or a folder of them, read
// into the entries POST /config/apply takes. Everything that can be refused without the server is
// refused here, naming the file, line and field: an unknown kind or field (from the server's JSON
// Schema, /api/v1/config/schema.json), a duplicate key, a reference to a key no file describes, and a
// literal value in a secret field. Secrets are `${env:NAME}` and are filled in from the environment.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Node, Pair, YAMLMap } from "yaml";
import { CliError, EXIT } from "./exit.ts";
import { yaml } from "./yaml.ts";

type Obj = Record<string, unknown>;

export interface LabEntry {
  kind: string;
  key: string;
  fields: Obj;
  file: string;
  line: number;
  /** Each field's line. */
  lines: Record<string, number>;
  /** The keys its fields name. */
  named: Named[];
}

export interface LabFile {
  owner: string;
  entries: LabEntry[];
}

interface PropertySchema {
  "x-secret"?: boolean;
  /** The value is the key of an entry of this kind. */
  "x-ref"?: string;
  /** The value is `<kind>/<key>`, the kind one of these. */
  "x-ref-any"?: string[];
  /** The value is a list of keys of this kind. */
  "x-link"?: string;
  /** An object whose members of these names (any case) are secrets (an http monitor's Authorization header). */
  "x-secret-names"?: string[];
  properties?: Record<string, PropertySchema>;
  items?: PropertySchema;
  additionalProperties?: PropertySchema | boolean;
}
export interface LabSchema {
  properties: Record<string, { "x-name-field"?: string | null; items?: { properties?: Record<string, PropertySchema> } }>;
}

/** A key a field names: where it is written, and the entry it must be. */
interface Named {
  line: number;
  field: string;
  target: string;
}

const ENV_REF = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;
const ENV_ANYWHERE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

export class LabFileError extends CliError {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(
      `${problems.length} problem${problems.length === 1 ? "" : "s"} in the lab file; nothing was sent:\n  ${problems.join("\n  ")}`,
      EXIT.usage,
    );
    this.problems = problems;
  }
}

/** The files a path names: itself, or the .yaml/.yml/.json files of a folder (sorted, not recursive). */
export function labFiles(path: string): string[] {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch {
    throw new CliError(`${path}: no such file or folder`, EXIT.usage);
  }
  if (!st.isDirectory()) return [path];
  const files = readdirSync(path)
    .filter((f) => /\.(ya?ml|json)$/i.test(f))
    .sort()
    .map((f) => join(path, f));
  if (files.length === 0) throw new CliError(`${path}: no .yaml, .yml or .json files in it`, EXIT.usage);
  return files;
}

/** Reads and checks lab files against the schema; throws LabFileError listing every problem. */
export function readLab(path: string, schema: LabSchema, env: NodeJS.ProcessEnv = process.env): LabFile {
  const problems: string[] = [];
  const entries: LabEntry[] = [];
  let owner: string | undefined;
  const { isMap, isScalar, isSeq, LineCounter, parseDocument } = yaml();
  for (const file of labFiles(path)) {
    const counter = new LineCounter();
    const doc = parseDocument(readFileSync(file, "utf8"), { lineCounter: counter, uniqueKeys: true });
    const at = (node: Node | Pair | null | undefined) => {
      const range = (node as Node | undefined)?.range ?? ((node as Pair | undefined)?.key as Node | undefined)?.range;
      return range ? counter.linePos(range[0]).line : 1;
    };
    for (const e of doc.errors) problems.push(`${file}:${e.linePos?.[0]?.line ?? 1}: ${e.message.split("\n")[0]}`);
    if (doc.errors.length > 0) continue;
    if (doc.contents === null) continue;
    if (!isMap(doc.contents)) {
      problems.push(`${file}:1: a lab file is a mapping of kinds (sites:, hardware:, ...)`);
      continue;
    }
    for (const pair of (doc.contents as YAMLMap).items) {
      const kind = isScalar(pair.key) ? String(pair.key.value) : "";
      const line = at(pair.key as Node);
      if (kind === "owner") {
        const value = isScalar(pair.value) ? String(pair.value.value) : "";
        if (owner !== undefined && owner !== value)
          problems.push(`${file}:${line}: owner "${value}" differs from "${owner}" in another file`);
        owner = value;
        continue;
      }
      const kindSchema = schema.properties[kind];
      if (!kindSchema || kind === "owner") {
        problems.push(
          `${file}:${line}: unknown kind "${kind}" (kinds: ${Object.keys(schema.properties)
            .filter((k) => k !== "owner")
            .join(", ")})`,
        );
        continue;
      }
      if (pair.value === null || (isScalar(pair.value) && pair.value.value === null)) continue;
      if (!isSeq(pair.value)) {
        problems.push(`${file}:${line}: ${kind} must be a list of objects`);
        continue;
      }
      // null: the kind has no name (alert routes), so each entry gives its key.
      const nameField = kindSchema["x-name-field"] === undefined ? "name" : kindSchema["x-name-field"];
      const props = kindSchema.items?.properties ?? {};
      for (const item of pair.value.items) {
        const itemLine = at(item as Node);
        if (!isMap(item)) {
          problems.push(`${file}:${itemLine}: each ${kind} entry must be a mapping of fields`);
          continue;
        }
        const fields: Obj = {};
        const lines: Record<string, number> = {};
        const named: Named[] = [];
        for (const f of item.items) {
          const name = isScalar(f.key) ? String(f.key.value) : "";
          const fieldLine = at(f.key as Node);
          lines[name] = fieldLine;
          if (!(name in props)) {
            problems.push(`${file}:${fieldLine}: ${kind}: unknown field "${name}"`);
            continue;
          }
          const value = (f.value as Node | null)?.toJSON?.() ?? (isScalar(f.value) ? f.value.value : null);
          const where = `${file}:${fieldLine}: ${kind}.${name}`;
          fields[name] = walk(
            value,
            props[name]!,
            where,
            env,
            problems,
            (target, path) => named.push({ line: fieldLine, field: path, target }),
            name,
          );
        }
        const key = fields.key ?? (nameField ? fields[nameField] : undefined);
        delete fields.key;
        if (typeof key !== "string" || key === "") {
          problems.push(
            `${file}:${itemLine}: ${kind} entry has ${nameField ? `neither key nor ${nameField}` : "no key (this kind has no name)"}`,
          );
          continue;
        }
        entries.push({ kind, key, fields, file, line: itemLine, lines, named });
      }
    }
  }
  // Keys: unique within a kind; references and links name keys the files describe.
  const seen = new Map<string, LabEntry>();
  for (const e of entries) {
    const id = `${e.kind}/${e.key}`;
    const first = seen.get(id);
    if (first) problems.push(`${e.file}:${e.line}: ${id} is described twice (first at ${first.file}:${first.line})`);
    else seen.set(id, e);
  }
  for (const e of entries)
    for (const n of e.named)
      if (!seen.has(n.target))
        problems.push(`${e.file}:${n.line}: ${e.kind}/${e.key}: ${n.field} names ${n.target}, which no file describes`);
  if (problems.length > 0) throw new LabFileError(problems);
  return { owner: owner ?? "default", entries };
}

/**
 * A field's value checked against its schema at every depth: `${env:NAME}` references filled in (a
 * secret's literal value, or a missing variable, is a problem), and each key it names reported to `name`.
 */
function walk(
  value: unknown,
  prop: PropertySchema | undefined,
  where: string,
  env: NodeJS.ProcessEnv,
  problems: string[],
  name: (target: string, path: string) => void,
  path: string,
): unknown {
  if (prop?.["x-secret"]) {
    if (value === null) return value;
    if (typeof value !== "string" || !ENV_REF.test(value)) {
      problems.push(`${where}: a secret is given as \${env:NAME}, never as a literal`);
      return value;
    }
  }
  if (typeof value === "string") {
    const filled = value.replace(ENV_ANYWHERE, (_m, v: string) => {
      const x = env[v];
      if (x === undefined) problems.push(`${where}: the environment variable ${v} is not set`);
      return x ?? "";
    });
    if (prop?.["x-ref"]) name(`${prop["x-ref"]}/${filled}`, path);
    const any = prop?.["x-ref-any"];
    if (any) {
      const kind = filled.slice(0, Math.max(0, filled.indexOf("/")));
      if (!any.includes(kind)) problems.push(`${where}: "${filled}" is not <kind>/<key> with a kind of: ${any.join(", ")}`);
      else name(filled, path);
    }
    return filled;
  }
  if (Array.isArray(value)) {
    if (prop?.["x-link"]) for (const k of value) name(`${prop["x-link"]}/${String(k)}`, path);
    return value.map((x, i) => walk(x, prop?.items, where, env, problems, name, `${path}[${i}]`));
  }
  if (value && typeof value === "object") {
    const secretNames = prop?.["x-secret-names"];
    const extra = typeof prop?.additionalProperties === "object" ? prop.additionalProperties : undefined;
    return Object.fromEntries(
      Object.entries(value).map(([k, x]) => {
        const sub = prop?.properties?.[k] ?? (secretNames?.includes(k.toLowerCase()) ? { "x-secret": true } : extra);
        return [k, walk(x, sub, `${where}.${k}`, env, problems, name, `${path}.${k}`)];
      }),
    );
  }
  return value;
}
