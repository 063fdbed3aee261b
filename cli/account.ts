// login, logout, contexts, whoami, token create: the CLI's own configuration and the caller's identity.
import { browserLogin } from "./browser-login.ts";
import { ApiClient } from "./client.ts";
import { configPath, contextNameFor, readConfig, writeConfig } from "./config.ts";
import { usageError } from "./exit.ts";
import { type OutputOptions, printObject } from "./output.ts";
import type { Session } from "./session.ts";

const out = (text: string) => process.stdout.write(text);

interface Me {
  id: number;
  email: string;
  role: string;
  scopes: string[];
  is_admin: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8").trim();
}

export interface LoginOptions {
  token?: string;
  tokenStdin?: boolean;
  name?: string;
  /** --browser / --web: the browser sign-in (browser-login.ts). */
  browser?: boolean;
  web?: boolean;
  /** --no-open sets false. */
  open?: boolean;
  timeout?: string;
  label?: string;
}

const DEFAULT_BROWSER_WAIT_S = 300;

function browserWait(value: string | undefined): number {
  if (value === undefined) return DEFAULT_BROWSER_WAIT_S;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600)
    throw usageError(`--timeout ${value}: a whole number of seconds from 1 to 3600`);
  return seconds;
}

export async function loginCommand(url: string, opts: LoginOptions): Promise<void> {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw usageError(`${url}: not a URL (e.g. https://lab.example.com)`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") throw usageError(`${url}: use an http:// or https:// URL`);
  const origin = base.origin;
  const inBrowser = opts.browser === true || opts.web === true;
  if (inBrowser && (opts.token !== undefined || opts.tokenStdin)) throw usageError("--browser signs in without a token: leave out --token");
  const token = inBrowser
    ? await browserLogin(origin, { open: opts.open !== false, timeoutSeconds: browserWait(opts.timeout), label: opts.label })
    : opts.tokenStdin
      ? await readStdin()
      : (opts.token ?? process.env.LAB_TOKEN);
  if (!token)
    throw usageError(
      "login needs an API token: --token TOKEN, --token-stdin, or LAB_TOKEN (create one in the console under Account → API tokens), or --browser to sign in in the browser",
    );
  const me = (await new ApiClient(origin, token).get<Me>("auth/me")).body;
  const name = opts.name ?? contextNameFor(origin);
  const config = readConfig();
  config.contexts[name] = { url: origin, token };
  config.current = name;
  writeConfig(config);
  out(`Logged in to ${origin} as ${me.email} (${me.role}); context "${name}" saved in ${configPath()}\n`);
}

export function logoutCommand(name: string | undefined): void {
  const config = readConfig();
  const target = name ?? config.current;
  if (!target || !config.contexts[target]) throw usageError(`no context named "${target ?? ""}"`);
  delete config.contexts[target];
  if (config.current === target) delete config.current;
  writeConfig(config);
  out(`Context "${target}" removed (its token is still valid on the server until revoked)\n`);
}

export function contextsList(opts: OutputOptions): void {
  const config = readConfig();
  const rows = Object.entries(config.contexts).map(([name, c]) => ({ current: name === config.current, name, url: c.url }));
  if (opts.output === "json" || opts.output === "yaml" || opts.jq) return printObject(out, rows, opts);
  if (rows.length === 0) {
    out("No contexts: run `lab login <url> --browser` (or --token <token>).\n");
    return;
  }
  for (const r of rows) out(`${r.current ? "*" : " "} ${r.name.padEnd(24)} ${r.url}\n`);
}

export function contextsUse(name: string): void {
  const config = readConfig();
  if (!config.contexts[name]) throw usageError(`no context named "${name}" (known: ${Object.keys(config.contexts).join(", ") || "none"})`);
  config.current = name;
  writeConfig(config);
  out(`Now using "${name}" (${config.contexts[name].url})\n`);
}

export async function whoamiCommand(session: Session, opts: OutputOptions): Promise<void> {
  const me = (await session.client.get<Me>("auth/me")).body;
  if (opts.output === "json" || opts.output === "yaml" || opts.jq) return printObject(out, me, opts);
  out(
    `${me.email} (${me.role}${me.is_admin ? ", administrator" : ""}) on ${session.client.baseUrl} [context ${session.contextName}]\nscopes: ${me.scopes.join(" ")}\n`,
  );
}

export async function tokenCreateCommand(
  session: Session,
  opts: OutputOptions & { label: string; scope?: string[]; expiresInDays?: string },
): Promise<void> {
  const body: Record<string, unknown> = { label: opts.label };
  if (opts.scope?.length) body.scopes = opts.scope;
  if (opts.expiresInDays !== undefined) {
    const days = Number(opts.expiresInDays);
    if (!Number.isInteger(days) || days < 1) throw usageError(`--expires-in-days ${opts.expiresInDays}: a whole number of days from 1`);
    body.expires_in_days = days;
  }
  const { body: created } = await session.client.request<{ token: string; id: number; expires_at: string | null }>(
    "POST",
    "auth/api-token",
    { body },
  );
  if (opts.output === "json" || opts.output === "yaml" || opts.jq) return printObject(out, created, opts);
  process.stderr.write(
    `Token ${created.id} created${created.expires_at ? `, expires ${created.expires_at}` : ""}; it is shown only now:\n`,
  );
  out(`${created.token}\n`);
}
