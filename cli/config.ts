// Where the CLI keeps its servers (contexts): one YAML file, $XDG_CONFIG_HOME/lab/config.yaml (or
// ~/.config/lab/config.yaml), written with mode 0600 in a 0700 directory because it holds API tokens.
// LAB_CONFIG names another file; LAB_URL + LAB_TOKEN (or --context / LAB_CONTEXT) override the choice.
// The CLI writes it as JSON, which is YAML too: every command reads it, and JSON.parse spares a command
// loading the YAML library (docs/adr/0503); a file edited by hand in YAML's own syntax is read as YAML.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { CliError, EXIT, usageError } from "./exit.ts";
import { yaml } from "./yaml.ts";

export interface Context {
  url: string;
  token: string;
}

export interface ConfigFile {
  current?: string;
  contexts: Record<string, Context>;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.startsWith("/") ? env.XDG_CONFIG_HOME : join(homedir(), ".config");
  return join(base, "lab");
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.LAB_CONFIG || join(configDir(env), "config.yaml");
}

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME?.startsWith("/") ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "lab");
}

export function readConfig(path = configPath()): ConfigFile {
  if (!existsSync(path)) return { contexts: {} };
  const text = readFileSync(path, "utf8");
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = undefined;
  }
  try {
    doc ??= yaml().parse(text);
  } catch (e) {
    throw new CliError(`${path}: not valid YAML (${(e as Error).message.split("\n")[0]})`, EXIT.usage);
  }
  const file = (doc ?? {}) as Partial<ConfigFile>;
  return { ...(file.current ? { current: file.current } : {}), contexts: file.contexts ?? {} };
}

/** Writes the whole file atomically (temporary file, then rename), owner-only. */
export function writeConfig(config: ConfigFile, path = configPath()): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}

/** The server a command talks to: LAB_URL + LAB_TOKEN, else the named context, else the current one. */
export function resolveContext(name: string | undefined, env: NodeJS.ProcessEnv = process.env): Context & { name: string } {
  if (env.LAB_URL && env.LAB_TOKEN && !name) return { name: "(environment)", url: env.LAB_URL, token: env.LAB_TOKEN };
  const config = readConfig(configPath(env));
  const chosen = name ?? env.LAB_CONTEXT ?? config.current;
  if (!chosen) throw usageError("not logged in: run `lab login <url> --browser` (or --token <token>) first (or set LAB_URL and LAB_TOKEN)");
  const ctx = config.contexts[chosen];
  if (!ctx) throw usageError(`no context named "${chosen}" (see \`lab contexts\`)`);
  return { name: chosen, ...ctx };
}

/** A context name from a URL: its host and port. */
export function contextNameFor(url: string): string {
  const u = new URL(url);
  return u.host;
}
