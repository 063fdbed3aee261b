// `lab login URL --browser` (docs/cli.md, docs/adr/0504): the sign-in of a native app (RFC 8252) with
// PKCE (RFC 7636). A one-shot HTTP listener on 127.0.0.1 and a port the system picks, the console's
// approval page opened in the browser ($BROWSER, else the desktop's opener), and a bounded wait for the
// browser to come back with a code and our state; the code and the verifier only this process knows
// then become an API token at the public exchange.
import { spawn } from "node:child_process";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import { ApiClient } from "./client.ts";
import { CliError, EXIT } from "./exit.ts";

export interface BrowserLoginOptions {
  /** Open the browser (false: only print the URL, `--no-open`). */
  open: boolean;
  /** How long to wait for the browser, in seconds. */
  timeoutSeconds: number;
  /** The new token's proposed label (the page lets the user change it). */
  label?: string | undefined;
}

/** What the browser brought, and the answer it is still waiting for (sent once the exchange is done). */
type Outcome = ({ code: string } | { error: string }) & { reply(ok: boolean, text: string): void };

/** The console's approval page; its query is the authorization request. */
export const APPROVAL_PATH = "/cli-login";
const CALLBACK_PATH = "/callback";

const say = (text: string) => process.stderr.write(text);
const random = (bytes: number) => randomBytes(bytes).toString("base64url");

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The page the browser shows once it came back (plain, no scripts: it is served from our listener). */
function page(res: ServerResponse, status: number, title: string, text: string): void {
  const html = `<!doctype html><html lang="en"><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;max-width:36em;margin:4em auto"><h1>${title}</h1><p>${text}</p></body></html>`;
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
    connection: "close",
  });
  res.end(html);
}

interface Listener {
  redirectUri: string;
  outcome: Promise<Outcome>;
  close(): void;
}

/** Listens on 127.0.0.1 (RFC 8252, 7.3: the literal, not "localhost") until a request brings our state. */
async function listen(state: string): Promise<Listener> {
  let settle!: (o: Outcome) => void;
  const outcome = new Promise<Outcome>((resolve) => {
    settle = resolve;
  });
  let done = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== CALLBACK_PATH)
      return page(res, 404, "Not found", "This is the lab CLI's sign-in listener.");
    // Anything without our state (another page, a guess) is turned away; we keep waiting for the real one.
    if (done || !sameText(url.searchParams.get("state") ?? "", state))
      return page(res, 400, "Sign-in not accepted", "This answer does not belong to the waiting <code>lab login</code>.");
    done = true;
    const code = url.searchParams.get("code");
    const reply = (ok: boolean, text: string) => page(res, 200, ok ? "Signed in" : "Not signed in", text);
    settle(code ? { code, reply } : { error: url.searchParams.get("error") || "no_code", reply });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    outcome,
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

/** $BROWSER (the first of a colon-separated list; `%s` stands for the URL), else the platform's opener. */
export function browserCommand(url: string, env: NodeJS.ProcessEnv = process.env): [string, string[]] {
  const chosen = env.BROWSER?.split(":").find((b) => b.trim() !== "");
  if (chosen) {
    const words = chosen.trim().split(/\s+/);
    const withUrl = words.some((w) => w.includes("%s")) ? words.map((w) => w.replaceAll("%s", url)) : [...words, url];
    return [withUrl[0]!, withUrl.slice(1)];
  }
  if (process.platform === "darwin") return ["open", [url]];
  if (process.platform === "win32") return ["cmd", ["/c", "start", '""', url.replaceAll("&", "^&")]];
  return ["xdg-open", [url]];
}

/** Starts the browser and does not wait for it; a failure only means the user opens the URL by hand. */
function openBrowser(url: string): void {
  const [command, args] = browserCommand(url);
  try {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.on("error", () => say(`lab: could not start ${command}; open the URL above yourself.\n`));
    child.unref();
  } catch {
    say(`lab: could not start ${command}; open the URL above yourself.\n`);
  }
}

function timeout(seconds: number): { promise: Promise<never>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new CliError(
            `no answer from the browser within ${seconds} s: the sign-in was not approved. Run \`lab login --browser\` again (or use --token).`,
            EXIT.failure,
          ),
        ),
      seconds * 1000,
    );
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** The whole browser sign-in; answers the new API token. */
export async function browserLogin(origin: string, opts: BrowserLoginOptions): Promise<string> {
  const verifier = random(32);
  const state = random(24);
  const listener = await listen(state);
  const wait = timeout(opts.timeoutSeconds);
  try {
    const approval = new URL(APPROVAL_PATH, origin);
    const host = hostname();
    const query: Record<string, string> = {
      client_name: `lab CLI on ${host}`,
      label: opts.label ?? `lab CLI on ${host}`,
      redirect_uri: listener.redirectUri,
      state,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    };
    for (const [k, v] of Object.entries(query)) approval.searchParams.set(k, v);
    say(`Open this URL in your browser, sign in and approve:\n\n  ${approval}\n\n`);
    if (opts.open) openBrowser(approval.toString());
    const limit = opts.timeoutSeconds < 120 ? `${opts.timeoutSeconds} s` : `${Math.round(opts.timeoutSeconds / 60)} min`;
    say(`Waiting for the browser (up to ${limit}; Ctrl-C to give up)...\n`);
    const outcome = await Promise.race([listener.outcome, wait.promise]);
    if ("error" in outcome) {
      outcome.reply(false, "The sign-in was not approved. You can close this window.");
      throw new CliError(
        outcome.error === "access_denied"
          ? "the sign-in was denied in the browser"
          : `the browser came back without a code (${outcome.error.replace(/[^\w.-]/g, "").slice(0, 100)})`,
        EXIT.refused,
      );
    }
    try {
      const { body } = await new ApiClient(origin, "").request<{ token: string }>("POST", "auth/cli-login/token", {
        body: { code: outcome.code, code_verifier: verifier, redirect_uri: listener.redirectUri },
      });
      outcome.reply(true, "The lab CLI is signed in. You can close this window and return to the terminal.");
      return body.token;
    } catch (e) {
      outcome.reply(false, "The lab CLI could not finish the sign-in; the terminal says why.");
      throw e;
    }
  } finally {
    wait.cancel();
    listener.close();
  }
}
