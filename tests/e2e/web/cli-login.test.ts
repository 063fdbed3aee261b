// `lab login URL --browser` end to end (issue 34, docs/adr/0504): the real CLI runs as a subprocess with
// --no-open and prints the approval URL; Chromium opens it, signs in (the page comes back after the
// sign-in), narrows the token to read:* and approves; the CLI exits 0 with the token saved (mode 0600)
// and `lab whoami` works with it. Then, already signed in, a second `lab login` is denied: the CLI exits 3
// and the saved context is unchanged. A sign-in through an OpenID provider also comes back to the
// approval (the provider's callback lands on /). A request for another redirect URI gets no Approve button.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RealOidc, startRealOidc } from "../../helpers/oidc-provider.ts";
import { jsonBody, killAll, type Product, REPO_ROOT, SETUP_TOKEN, startProduct, tempDataDir, until } from "../helpers.ts";
import { hasChromium, launch, seen, shot } from "./browser.ts";

const HOST = "127.0.41.1";
const OIDC_HOST = "127.0.41.8";
const ADMIN = { email: "cli-login@example.com", password: "a long passphrase for the cli login" };
const home = mkdtempSync(join(tmpdir(), "lab-cli-login-"));
const data = tempDataDir();
const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_CACHE_HOME: join(home, "cache") };
let product: Product;
let browser: Browser;
let context: BrowserContext;
let bearer = "";
let op: RealOidc | undefined;

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `lab` with a home of its own; its output is collected as it comes (the URL is printed before it exits). */
function startLab(args: string[]): Running {
  const child = spawn(process.execPath, [join(REPO_ROOT, "bin/lab.mjs"), ...args], { cwd: REPO_ROOT, env });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => {
    out += d;
  });
  child.stderr!.on("data", (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

function lab(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [join(REPO_ROOT, "bin/lab.mjs"), ...args], { cwd: REPO_ROOT, env, timeout: 60_000 }, (e, stdout, stderr) =>
      resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

const approvalUrl = (run: Running) =>
  until("the approval URL on the CLI's stderr", () => /http:\/\/\S+\/cli-login\?\S+/.exec(run.stderr())?.[0], 30_000, run.stderr);

/** The CLI's exit, bounded: a CLI still waiting is killed and the test fails with what it printed. */
async function exitOf(run: Running): Promise<number | null> {
  const timer = setTimeout(() => run.child.kill(), 30_000);
  const code = await run.exited;
  clearTimeout(timer);
  return code;
}

beforeAll(async () => {
  product = await startProduct({ HOST, DATA_DIR: data.dir, SVC_SETUP_TOKEN: SETUP_TOKEN }, 240_000);
  const init = await product.fetch("/api/v1/bootstrap/initialize", jsonBody({ ...ADMIN, setup_token: SETUP_TOKEN }));
  expect(init.status).toBe(200);
  bearer = ((await init.json()) as { token: string }).token;
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
}, 300_000);

afterAll(async () => {
  await op?.close();
  await browser?.close();
  await killAll();
  data.remove();
  rmSync(home, { recursive: true, force: true });
});

describe.skipIf(!hasChromium)("lab login --browser", () => {
  it("prints the URL, the browser signs in and approves, the CLI saves the token (0600) and whoami works", async () => {
    const run = startLab(["login", product.url, "--browser", "--no-open", "--timeout", "120", "--name", "browser"]);
    const url = await approvalUrl(run);
    expect(new URL(url).origin).toBe(product.url);
    const page = await context.newPage();
    await page.goto(url);
    // Nobody is signed in: the sign-in screen first, then the same page.
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await seen(page.getByRole("heading", { name: "Sign in the lab CLI" }));
    await seen(page.getByText(/lab CLI on .+ asks for an API token for your account cli-login@example\.com/));
    await seen(page.getByText(/listening at 127\.0\.0\.1:\d+ on this computer/));
    await page.getByRole("checkbox", { name: "read:*" }).check();
    await shot(page, "cli-login-approval");
    await page.getByRole("button", { name: "Approve" }).click();
    // The browser is back at the CLI's listener, which answers once the token is in hand.
    await seen(page.getByRole("heading", { name: "Signed in", exact: true }));
    expect(new URL(page.url()).hostname).toBe("127.0.0.1");
    expect(new URL(page.url()).searchParams.has("code")).toBe(true);
    const code = await exitOf(run);
    expect(code, run.stderr()).toBe(0);
    expect(run.stdout()).toContain(`Logged in to ${product.url} as ${ADMIN.email}`);
    const file = join(home, "config", "lab", "config.yaml");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Written as JSON (which is YAML too): the token from the exchange is the context's.
    expect(Object.values(JSON.parse(readFileSync(file, "utf8")).contexts as Record<string, { token: string }>)[0]!.token).toMatch(/^svc_/);
    const who = await lab(["whoami"]);
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toContain(ADMIN.email);
    expect(who.stdout).toContain("scopes: read:*\n");
    await page.close();
  }, 120_000);

  it("signed in already, Deny sends the browser back with access_denied: the CLI exits 3 and saves nothing", async () => {
    const before = readFileSync(join(home, "config", "lab", "config.yaml"), "utf8");
    const run = startLab(["login", product.url, "--browser", "--no-open", "--timeout", "120", "--name", "denied"]);
    const page = await context.newPage();
    await page.goto(await approvalUrl(run));
    await seen(page.getByRole("heading", { name: "Sign in the lab CLI" }));
    await page.getByRole("button", { name: "Deny" }).click();
    await seen(page.getByRole("heading", { name: "Not signed in", exact: true }));
    expect(new URL(page.url()).searchParams.get("error")).toBe("access_denied");
    expect(await exitOf(run)).toBe(3);
    expect(run.stderr()).toContain("the sign-in was denied in the browser");
    expect(readFileSync(join(home, "config", "lab", "config.yaml"), "utf8")).toBe(before);
    await page.close();
  }, 120_000);

  it("a sign-in through an OpenID provider on the way comes back to the approval", async () => {
    op = await startRealOidc(`${product.url}/api/v1/auth/oauth/oidc/op/callback`, OIDC_HOST);
    const admin = (method: string, path: string, body: unknown) =>
      product.fetch(`/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    // The provider is on loopback, which the outbound policy refuses unless allowed.
    const settings = { public_url: product.url, outbound_policy: { allow_private: true, allow_loopback: true, allow_link_local: false } };
    expect((await admin("PUT", "/settings", settings)).status).toBe(200);
    const providers = {
      op: { issuer: op.issuer, client_id: op.clientId, client_secret: op.clientSecret, enabled: true, allow_registration: true },
    };
    expect((await admin("PATCH", "/settings/oauth", { providers })).status).toBe(200);
    const run = startLab(["login", product.url, "--browser", "--no-open", "--timeout", "120", "--name", "oidc"]);
    const fresh = await browser.newContext();
    const page = await fresh.newPage();
    await page.goto(await approvalUrl(run));
    await page.getByRole("link", { name: /^Sign in with / }).click();
    await seen(page.getByRole("heading", { name: "Sign in the lab CLI" }), 30_000);
    await seen(page.getByText(new RegExp(`for your account ${op.account.email.replace(".", "\\.")}`)));
    await page.getByRole("button", { name: "Approve" }).click();
    await seen(page.getByRole("heading", { name: "Signed in", exact: true }));
    expect(await exitOf(run), run.stderr()).toBe(0);
    const who = await lab(["whoami"]);
    expect(who.stdout).toContain(op.account.email);
    await fresh.close();
  }, 120_000);

  it("shows no approval for a request that would not return to this computer", async () => {
    const page = await context.newPage();
    const query = new URLSearchParams({
      redirect_uri: "http://example.com:8080/callback",
      state: "a-state-of-sixteen-or-more",
      client_name: "lab CLI",
      code_challenge: "x".repeat(43),
      code_challenge_method: "S256",
    });
    await page.goto(`${product.url}/cli-login?${query}`);
    await seen(page.getByText(/This sign-in request cannot be approved/));
    expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
    await page.close();
  }, 60_000);
});
