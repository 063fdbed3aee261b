// `lab login --browser`'s own side (cli/browser-login.ts, docs/adr/0504), against a stand-in for the
// server's exchange on 127.0.41.7: the approval URL it prints, its listener (another path is 404, a
// wrong state 400 and ignored), the exchange with the verifier whose challenge it sent, a denial, the
// bounded wait, and the browser command ($BROWSER with %s or a colon list).
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { browserCommand, browserLogin } from "../../cli/browser-login.ts";
import { CliError, EXIT } from "../../cli/exit.ts";

let server: Server;
let origin = "";
let exchanged: Record<string, string> | undefined;
let printed = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", () => {
      exchanged = JSON.parse(body);
      res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ token: "svc_test_token" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.41.7", resolve));
  origin = `http://127.0.41.7:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  vi.restoreAllMocks();
  exchanged = undefined;
});

/** Runs a sign-in whose printed approval URL is handed to `browser`, standing in for the person. */
async function signIn(browser: (approval: URL) => Promise<void>, timeoutSeconds = 30): Promise<string> {
  printed = "";
  vi.spyOn(process.stderr, "write").mockImplementation((text) => {
    printed += String(text);
    return true;
  });
  const login = browserLogin(origin, { open: false, timeoutSeconds, label: "unit" });
  // A denial settles it while `browser` still runs: the caller looks at the outcome afterwards.
  login.catch(() => undefined);
  for (let i = 0; i < 200 && !/\/cli-login\?/.test(printed); i++) await new Promise((r) => setTimeout(r, 10));
  const approval = new URL(/http:\/\/\S+\/cli-login\?\S+/.exec(printed)![0]);
  await browser(approval);
  return login;
}

describe("lab login --browser, the CLI's side", () => {
  it("prints the approval URL, turns away other requests, and trades the code with the verifier of its challenge", async () => {
    let challenge = "";
    const token = await signIn(async (approval) => {
      const q = approval.searchParams;
      expect(approval.pathname).toBe("/cli-login");
      expect(q.get("code_challenge_method")).toBe("S256");
      expect(q.get("label")).toBe("unit");
      expect(q.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      challenge = q.get("code_challenge")!;
      const back = new URL(q.get("redirect_uri")!);
      expect((await fetch(new URL("/other", back))).status).toBe(404);
      back.search = new URLSearchParams({ code: "stolen", state: "not-the-state" }).toString();
      expect((await fetch(back)).status).toBe(400);
      back.search = new URLSearchParams({ code: "the-code", state: q.get("state")! }).toString();
      const page = await fetch(back);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Signed in");
    });
    expect(token).toBe("svc_test_token");
    expect(exchanged).toMatchObject({ code: "the-code" });
    expect(createHash("sha256").update(exchanged!.code_verifier!).digest("base64url")).toBe(challenge);
  });

  it("a denial in the browser is exit 3 and nothing is exchanged", async () => {
    const login = signIn(async (approval) => {
      const back = new URL(approval.searchParams.get("redirect_uri")!);
      back.search = new URLSearchParams({ error: "access_denied", state: approval.searchParams.get("state")! }).toString();
      expect((await fetch(back)).status).toBe(200);
    });
    const error = await login.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(EXIT.refused);
    expect((error as CliError).message).toBe("the sign-in was denied in the browser");
    expect(exchanged).toBeUndefined();
  });

  it("gives up after its wait with a clear message (exit 1)", async () => {
    const error = await signIn(async () => {}, 1).catch((e: unknown) => e);
    expect((error as CliError).exitCode).toBe(EXIT.failure);
    expect((error as CliError).message).toMatch(/^no answer from the browser within 1 s/);
  });

  it("opens $BROWSER (the first of a colon list, %s for the URL), else the desktop's opener", () => {
    expect(browserCommand("http://x/a", { BROWSER: "firefox" })).toEqual(["firefox", ["http://x/a"]]);
    expect(browserCommand("http://x/a", { BROWSER: ":w3m -o x %s:lynx" })).toEqual(["w3m", ["-o", "x", "http://x/a"]]);
    if (process.platform === "linux") expect(browserCommand("http://x/a", {})).toEqual(["xdg-open", ["http://x/a"]]);
  });
});
