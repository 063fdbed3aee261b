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
}

export interface LabFile {
  owner: string;
  entries: LabEntry[];
}

interface PropertySchema {
  "x-secret"?: boolean;
  "x-ref"?: string;
  "x-link"?: string;
}
export interface LabSchema {
  properties: Record<string, { "x-name-field"?: string; items?: { properties?: Record<string, PropertySchema> } }>;
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
      const nameField = kindSchema["x-name-field"] ?? "name";
      const props = kindSchema.items?.properties ?? {};
      for (const item of pair.value.items) {
        const itemLine = at(item as Node);
        if (!isMap(item)) {
          problems.push(`${file}:${itemLine}: each ${kind} entry must be a mapping of fields`);
          continue;
        }
        const fields: Obj = {};
        const lines: Record<string, number> = {};
        for (const f of item.items) {
          const name = isScalar(f.key) ? String(f.key.value) : "";
          const fieldLine = at(f.key as Node);
          lines[name] = fieldLine;
          if (!(name in props)) {
            problems.push(`${file}:${fieldLine}: ${kind}: unknown field "${name}"`);
            continue;
          }
          const value = (f.value as Node | null)?.toJSON?.() ?? (isScalar(f.value) ? f.value.value : null);
          fields[name] = substitute(value, props[name]!, `${file}:${fieldLine}: ${kind}.${name}`, env, problems);
        }
        const key = fields.key ?? fields[nameField];
        delete fields.key;
        if (typeof key !== "string" || key === "") {
          problems.push(`${file}:${itemLine}: ${kind} entry has neither key nor ${nameField}`);
          continue;
        }
        entries.push({ kind, key, fields, file, line: itemLine, lines });
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
  for (const e of entries) {
    const props = schema.properties[e.kind]?.items?.properties ?? {};
    for (const [field, value] of Object.entries(e.fields)) {
      const ref = props[field]?.["x-ref"];
      const link = props[field]?.["x-link"];
      const targets = ref ? (value === null ? [] : [value]) : link ? (Array.isArray(value) ? value : [value]) : [];
      for (const t of targets)
        if (!seen.has(`${ref ?? link}/${String(t)}`))
          problems.push(
            `${e.file}:${e.lines[field] ?? e.line}: ${e.kind}/${e.key}: ${field} names ${ref ?? link}/${String(t)}, which no file describes`,
          );
    }
  }
  if (problems.length > 0) throw new LabFileError(problems);
  return { owner: owner ?? "default", entries };
}

/** `${env:NAME}` references filled in; a secret field's literal value (or a missing variable) is a problem. */
function substitute(value: unknown, prop: PropertySchema, where: string, env: NodeJS.ProcessEnv, problems: string[]): unknown {
  if (typeof value !== "string") {
    if (prop["x-secret"] && value !== null) problems.push(`${where}: a secret is given as \${env:NAME}, never as a literal`);
    return value;
  }
  if (prop["x-secret"] && !ENV_REF.test(value)) {
    problems.push(`${where}: a secret is given as \${env:NAME}, never as a literal`);
    return value;
  }
  return value.replace(ENV_ANYWHERE, (_m, name: string) => {
    const v = env[name];
    if (v === undefined) problems.push(`${where}: the environment variable ${name} is not set`);
    return v ?? "";
  });
}
