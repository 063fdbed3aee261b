// docker-compose.yml read the way Docker Compose reads it, without Docker: YAML with its merge keys
// (`<<: *app`), every string value interpolated from an environment by the Compose specification's rules
// ($$, $VAR, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?message}, ${VAR?message}, ${VAR:+alt},
// ${VAR+alt}, nested in the default), and the final stage's ENV of the Dockerfile the services build.
import { readFileSync } from "node:fs";
import { parse } from "yaml";

export type Env = Record<string, string | undefined>;

/** What Compose refuses to start with: a required variable unset or empty, or a malformed expression. */
export class InterpolationError extends Error {}

export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  deploy?: { replicas?: number };
  healthcheck?: { test?: string[] | string };
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

export function interpolate(text: string, env: Env): string {
  let i = 0;
  // `live` is false inside the branch a modifier does not take: Compose evaluates it lazily, so a
  // required variable there raises nothing.
  const sequence = (inBraces: boolean, live: boolean): string => {
    let out = "";
    while (i < text.length) {
      const c = text[i]!;
      if (inBraces && c === "}") return out;
      if (c !== "$") {
        out += c;
        i++;
        continue;
      }
      const next = text[i + 1];
      if (next === "$") {
        out += "$";
        i += 2;
      } else if (next === "{") {
        i += 2;
        out += braced(live);
      } else {
        const name = NAME.exec(text.slice(i + 1))?.[0];
        if (!name) throw new InterpolationError(`invalid interpolation format in ${JSON.stringify(text)}`);
        out += env[name] ?? "";
        i += 1 + name.length;
      }
    }
    if (inBraces) throw new InterpolationError(`unclosed \${ in ${JSON.stringify(text)}`);
    return out;
  };
  const braced = (live: boolean): string => {
    const name = NAME.exec(text.slice(i))?.[0];
    if (!name) throw new InterpolationError(`invalid interpolation format in ${JSON.stringify(text)}`);
    i += name.length;
    const op = /^:?[-?+]/.exec(text.slice(i))?.[0] ?? "";
    i += op.length;
    const value = env[name];
    const unset = value === undefined;
    const empty = unset || value === "";
    // Which outcome the modifier takes decides whether its argument is evaluated for real.
    const takesArg =
      op === ":-" || op === ":?" ? empty : op === "-" || op === "?" ? unset : op === ":+" ? !empty : op === "+" ? !unset : false;
    const arg = op ? sequence(true, live && takesArg) : "";
    if (text[i] !== "}") throw new InterpolationError(`invalid interpolation format in ${JSON.stringify(text)}`);
    i++;
    if (op === "") return value ?? "";
    if (op.endsWith("?")) {
      if (takesArg && live) throw new InterpolationError(`required variable ${name} is missing a value: ${arg}`);
      return value ?? "";
    }
    if (op.endsWith("-")) return takesArg ? arg : value!;
    return takesArg ? arg : "";
  };
  return sequence(false, true);
}

function interpolateAll(node: unknown, env: Env): unknown {
  if (typeof node === "string") return interpolate(node, env);
  if (Array.isArray(node)) return node.map((n) => interpolateAll(n, env));
  if (node && typeof node === "object") return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolateAll(v, env)]));
  return node;
}

/** The compose file at `path`, merged and interpolated from `env` (throws InterpolationError as Compose refuses). */
export function loadCompose(path: string, env: Env): ComposeFile {
  const doc = parse(readFileSync(path, "utf8"), { merge: true }) as unknown;
  return interpolateAll(doc, env) as ComposeFile;
}

/** A service's environment as a map (Compose accepts a map or a list of NAME=value). */
export function serviceEnvironment(service: ComposeService): Record<string, string> {
  const e = service.environment ?? {};
  if (Array.isArray(e)) {
    return Object.fromEntries(
      e.map((line) => {
        const eq = line.indexOf("=");
        return eq < 0 ? [line, ""] : [line.slice(0, eq), line.slice(eq + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(e).map(([k, v]) => [k, v === null ? "" : String(v)]));
}

export function dependsOn(service: ComposeService): string[] {
  const d = service.depends_on ?? [];
  return Array.isArray(d) ? d : Object.keys(d);
}

/** The ENV of a Dockerfile's final stage (`ENV A=1 \ B=2` lines, unquoted values), as the container starts with. */
export function dockerfileEnv(path: string): Record<string, string> {
  const lines = readFileSync(path, "utf8")
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/);
  let env: Record<string, string> = {};
  for (const line of lines) {
    const [instruction, ...rest] = line.trim().split(/\s+/);
    if (/^FROM$/i.test(instruction ?? "")) env = {};
    if (!/^ENV$/i.test(instruction ?? "")) continue;
    for (const pair of rest) {
      const eq = pair.indexOf("=");
      if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
  }
  return env;
}

/** The NAME=value lines a .env file (deploy/env.example) sets, comments and blank lines left out. */
export function envFileNames(path: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(path, "utf8").split(/\r?\n/)) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}
