// The operator's round trip, on PostgreSQL and on the embedded PGlite default: start the real server,
// build some inventory, take a backup over HTTP, change things, stop, (wipe,) `npm run restore --
// <archive>` as a child process, start again: the inventory is the one backed up. A corrupt or
// truncated archive is refused (exit 1) and nothing changes; so is a restore while the server runs.
import { execFile } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/database.ts";
import { jsonBody, killAll, REPO_ROOT, SETUP_TOKEN, startProduct, tempDataDir, type Product } from "./helpers.ts";

afterAll(killAll);

function runRestore(env: Record<string, string>, archive: string): Promise<{ code: number; out: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn", ...env };
  delete childEnv.NODE_OPTIONS;
  delete childEnv.VITEST;
  delete childEnv.NODE_ENV;
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  return new Promise((done) => {
    execFile(
      "npm",
      ["run", "--silent", "restore", "--", archive],
      { cwd: REPO_ROOT, env: childEnv, timeout: 120_000 },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

async function call<T>(p: Product, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await p.fetch(`/api/v1/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const names = async (p: Product, token: string) =>
  (await call<{ items: { name: string }[] }>(p, token, "GET", "hardware?sort=name")).items.map((h) => h.name);

/** Copies the archive with its checksum file into `dir`, damaged by `damage`. */
function damagedCopy(archive: string, dir: string, damage: (b: Buffer) => Buffer): string {
  const target = join(dir, basename(archive));
  writeFileSync(target, damage(readFileSync(archive)));
  copyFileSync(`${archive}.sha256`, `${target}.sha256`);
  return target;
}

async function roundTrip(env: Record<string, string>, wipe?: () => Promise<void>, count?: () => Promise<number>): Promise<void> {
  let p = await startProduct(env, 100_000);
  const init = await p.fetch(
    "/api/v1/bootstrap/initialize",
    jsonBody({ email: "ops@example.com", password: "a long restore test password", setup_token: SETUP_TOKEN }),
  );
  expect(init.status).toBe(200);
  const token = (await init.json()).token as string;
  await call(p, token, "POST", "hardware", { name: "pve-1", role: "hypervisor", status: "up" });
  await call(p, token, "POST", "hardware", { name: "nas-1", role: "nas", status: "up" });
  const before = await names(p, token);
  const { backup } = await call<{ backup: { filename: string; path: string } }>(p, token, "POST", "admin/db/backup");
  await call(p, token, "POST", "hardware", { name: "after-backup", role: "server", status: "up" });
  expect(await names(p, token)).toContain("after-backup");
  const live = await runRestore(env, backup.path);
  expect(live.code).toBe(1);
  expect(live.out).toContain("stop the server first");
  expect(await names(p, token)).toContain("after-backup");
  expect(await p.stop()).toBe(0);

  const scratch = tempDataDir();
  try {
    const flipped = damagedCopy(backup.path, scratch.dir, (b) => {
      const c = Buffer.from(b);
      c[Math.floor(c.length / 2)]! ^= 0x01;
      return c;
    });
    const refused = await runRestore(env, flipped);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain("corrupt");
    const truncated = damagedCopy(backup.path, scratch.dir, (b) => b.subarray(0, b.length - 100));
    const refusedToo = await runRestore(env, truncated);
    expect(refusedToo.code).toBe(1);
    if (count) expect(await count()).toBe(3); // nothing changed
  } finally {
    scratch.remove();
  }

  await wipe?.();
  const restored = await runRestore(env, backup.path);
  expect(restored.out).toContain("restore complete");
  expect(restored.code).toBe(0);

  p = await startProduct(env, 100_000);
  expect(await names(p, token)).toEqual(before);
  const list = await call<{ snapshots: { filename: string; verified_at: string | null }[] }>(p, token, "GET", "admin/db/snapshots");
  expect(list.snapshots.find((s) => s.filename === backup.filename)?.verified_at).toBeTruthy();
  expect(await p.stop()).toBe(0);
}

describe("npm run restore", () => {
  it("restores a pg_dump backup into PostgreSQL after the database was wiped", async () => {
    const db = await createTestDatabase();
    const data = tempDataDir();
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      await roundTrip(
        { DATA_DIR: data.dir, DATABASE_URL: db.url },
        async () => {
          await sql.unsafe("drop schema public cascade; create schema public; drop schema drizzle cascade");
        },
        async () => Number((await sql`select count(*)::int as n from hardware`)[0]!.n),
      );
    } finally {
      await sql.end({ timeout: 1 });
      await db.drop();
      data.remove();
    }
  }, 240_000);

  it("restores an embedded PGlite backup into DATA_DIR", async () => {
    const data = tempDataDir();
    try {
      await roundTrip({ DATA_DIR: data.dir });
    } finally {
      data.remove();
    }
  }, 240_000);
});
