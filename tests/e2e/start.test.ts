// The embedded default, end to end: `npm start` with a DATA_DIR and no DATABASE_URL serves the probes,
// the OpenAPI document and the offline documentation pages, refuses a second process on the same data
// directory, keeps the data directory the owner's only, and keeps what was written across a SIGTERM and
// a restart.
import { chmodSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonBody, killAll, type Product, SETUP_TOKEN, spawnProduct, startProduct, tempDataDir } from "./helpers.ts";

const data = tempDataDir();
let p: Product;

beforeAll(async () => {
  // As an older release (or a plain mkdir) left it: the start must tighten it.
  chmodSync(data.dir, 0o755);
  // A fresh PGlite data directory takes a few seconds (and a lot of memory) to initialise; on a machine
  // loaded by the rest of the suite it has taken over 70 s.
  p = await startProduct({ DATA_DIR: data.dir }, 150_000);
}, 180_000);

afterAll(async () => {
  await killAll();
  data.remove();
});

describe("npm start on embedded PGlite", () => {
  it("answers the probes", async () => {
    const live = await p.fetch("/api/v1/livez", { method: "HEAD" });
    expect(live.status).toBe(200);
    expect(await live.text()).toBe("");
    const startup = await p.fetch("/api/v1/startupz");
    expect(startup.status).toBe(200);
    expect(await startup.json()).toEqual({ started: true, state: "ready" });
    const ready = await p.fetch("/api/v1/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ready: true,
      state: "ready",
      health: "ready",
      checks: { database: "ok", migrations: "ok" },
      writes_permitted: true,
    });
  });

  it("keeps DATA_DIR and every file in it (the embedded database's, the vault key) the owner's only", async () => {
    expect(statSync(data.dir).mode & 0o777).toBe(0o700);
    expect(p.output()).toMatch(/"level":"warn".*DATA_DIR was accessible to other local accounts; its mode was tightened/);
    const open: string[] = [];
    let files = 0;
    const walk = (dir: string, depth: number) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        const st = statSync(path);
        files++;
        if (st.mode & 0o077) open.push(`${path.slice(data.dir.length)} 0${(st.mode & 0o777).toString(8)}`);
        if (st.isDirectory() && depth < 8) walk(path, depth + 1);
      }
    };
    walk(data.dir, 0);
    expect(files).toBeGreaterThan(100);
    for (const name of ["PG_VERSION", "pg_hba.conf", "vault.key", "base"]) expect(readdirSync(data.dir)).toContain(name);
    expect(open).toEqual([]);
  });

  it("serves the OpenAPI document", async () => {
    const res = await p.fetch("/api/openapi.json");
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths).toHaveProperty("/api/v1/readyz");
  });

  it("serves the Scalar page with its script from this server, not a CDN", async () => {
    const res = await p.fetch("/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain("/api/docs/assets/scalar.js");
    expect(html).not.toMatch(/https?:\/\/(cdn\.jsdelivr|unpkg|cdnjs)/);
    const js = await p.fetch("/api/docs/assets/scalar.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
  });

  it("serves the ReDoc page with its script from this server, not a CDN", async () => {
    const res = await p.fetch("/api/redoc");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain("/api/docs/assets/redoc.js");
    expect(html).not.toMatch(/https?:\/\/(cdn\.jsdelivr|unpkg|cdnjs|cdn\.redoc)/);
    const js = await p.fetch("/api/docs/assets/redoc.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
  });

  it("refuses a second process on the same DATA_DIR with a message naming it", async () => {
    const second = await spawnProduct({ DATA_DIR: data.dir });
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([second.exited, new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), 20_000)))]);
    clearTimeout(timer);
    if (exit === "timeout") second.kill();
    expect(exit, second.output()).not.toBe("timeout");
    if (exit === "timeout") return;
    expect(exit.code, second.output()).not.toBe(0);
    expect(second.output()).toContain("DATA_DIR");
    expect(second.output()).toContain(data.dir);
    // The first process is unharmed.
    expect((await p.fetch("/api/v1/readyz")).status).toBe(200);
  });

  it("keeps data across a SIGTERM and a restart", async () => {
    const email = "first-admin@example.test";
    const init = await p.fetch(
      "/api/v1/bootstrap/initialize",
      jsonBody({ email, password: "correct horse battery", display_name: "First Admin", setup_token: SETUP_TOKEN }),
    );
    expect(init.status, await init.clone().text()).toBe(200);
    expect((await (await p.fetch("/api/v1/bootstrap/status")).json()).bootstrapped).toBe(true);

    expect(await p.stop("SIGTERM"), p.output()).toBe(0);

    p = await startProduct({ DATA_DIR: data.dir }, 150_000);
    expect(await (await p.fetch("/api/v1/bootstrap/status")).json()).toEqual({ bootstrapped: true, needs_bootstrap: false });
    // Once done, initialize answers 409: the admin written before the restart is still there.
    const again = await p.fetch(
      "/api/v1/bootstrap/initialize",
      jsonBody({ email: "second@example.test", password: "correct horse battery", setup_token: SETUP_TOKEN }),
    );
    expect(again.status).toBe(409);
    expect(await p.stop("SIGTERM"), p.output()).toBe(0);
  }, 240_000);
});
