// POST /admin/db/snapshot: a cb-snapshot-<ts>.tar.gz of the dump, the uploads and a manifest (sha256 of
// every member, the vault key id), listed (kind snapshot) and audited; the vault key only with
// include_vault_key and the confirmation headers (428 otherwise, nothing taken). The restore checks every
// member, so snapshot -> wipe -> restore gives the same export and the uploads back; the key is written
// only with --with-vault-key; a corrupted member is refused and nothing changes.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createReadStream, createWriteStream } from "node:fs";
import { createGunzip, createGzip } from "node:zlib";
import { extract, pack } from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeBackupStore } from "../../../runtime/backups/node-backup-store.ts";
import { restore } from "../../../runtime/backups/restore.ts";
import { unpackSnapshot } from "../../../runtime/backups/snapshot.ts";
import { PGlite } from "@electric-sql/pglite";
import { TEST_VAULT_KEY } from "../../helpers/env.ts";
import { seedRichInventory } from "../../helpers/inventory-seed.ts";
import { confirmHeaders, createHarness, type Harness, json } from "../audit/harness.ts";

const dir = mkdtempSync(join(tmpdir(), "svc-snapshots-"));
const dataDir = mkdtempSync(join(tmpdir(), "svc-snapshot-data-"));
let h: Harness;
const LOGO = Buffer.from("\x89PNG\r\n\x1a\n fake logo bytes \x00\x01\x02", "binary");

beforeAll(async () => {
  h = await createHarness();
  const { config } = h.t.runtime.deps;
  h.t.runtime.deps.backups = nodeBackupStore({
    dir,
    postgres: { url: config.DATABASE_URL!, sql: h.t.runtime.database.sql! },
    vaultKey: async () => config.SVC_VAULT_KEY ?? null,
  });
  await seedRichInventory(h.t.sql);
  const digest = createHash("sha256").update(LOGO).digest("hex");
  await h.t
    .sql`insert into uploads (kind, name, content_type, size, sha256, bytes) values ('branding', 'login-logo-0123abcd.png', 'image/png', ${LOGO.length}, ${digest}, ${LOGO})`;
}, 60_000);
afterAll(async () => {
  await h?.t.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/** The members of a gzip tarball, by name. */
async function members(path: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const ex = extract();
  ex.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: unknown) => void chunks.push(c as Buffer));
    stream.on("end", () => {
      out.set(header.name, Buffer.concat(chunks));
      next();
    });
  });
  await pipeline(createReadStream(path), createGunzip(), ex);
  return out;
}

/** Writes `files` as a gzip tarball at `path` with its .sha256 beside it (a well-formed archive). */
async function repack(path: string, files: Map<string, Buffer>): Promise<void> {
  const p = pack();
  for (const [name, body] of files) p.entry({ name }, body);
  p.finalize();
  await pipeline(p, createGzip(), createWriteStream(path));
  const sha = createHash("sha256").update(readFileSync(path)).digest("hex");
  writeFileSync(`${path}.sha256`, `${sha}  ${path.split("/").pop()}\n`);
}

const restoreConfig = () => ({ ...h.t.runtime.deps.config, DATA_DIR: dataDir, BACKUP_DIR: dir });
const exportDoc = async () => {
  const res = await h.call("/api/v1/admin/export");
  expect(res.status).toBe(200);
  const doc = await res.json();
  delete doc.exported_at;
  return doc;
};

describe("POST /admin/db/snapshot", () => {
  let plain: { filename: string; path: string; sha256: string };
  let keyed: { filename: string; path: string };

  it("bundles the dump, the uploads and a manifest with every member's SHA-256 and the vault key id, but no key", async () => {
    const res = await h.call("/api/v1/admin/db/snapshot", { method: "POST" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ kind: "snapshot", method: "pg_dump", vault_key_included: false, s3_key: null });
    expect(body.filename).toMatch(/^cb-snapshot-\d{8}T\d{9}Z\.tar\.gz$/);
    plain = body;
    const files = await members(body.path);
    expect([...files.keys()]).toEqual(["db.sql.gz", "uploads/branding/login-logo-0123abcd.png", "manifest.json"]);
    expect(files.get("uploads/branding/login-logo-0123abcd.png")!.equals(LOGO)).toBe(true);
    const manifest = JSON.parse(files.get("manifest.json")!.toString("utf8"));
    expect(manifest).toMatchObject({
      format: 1,
      version: h.t.runtime.deps.config.version,
      vault_key_id: h.t.runtime.deps.vault.keyId,
      vault_key_included: false,
      method: "pg_dump",
    });
    for (const m of manifest.members) expect(m.sha256).toBe(createHash("sha256").update(files.get(m.name)!).digest("hex"));
    expect(JSON.stringify([...files.values()].map((b) => b.toString("latin1")))).not.toContain(TEST_VAULT_KEY);

    const list = (await (await h.call("/api/v1/admin/db/snapshots")).json()).snapshots as { filename: string; kind: string }[];
    expect(list.find((s) => s.filename === body.filename)).toMatchObject({ kind: "snapshot" });
    expect((await h.t.sql`select 1 from audit_log where action = 'db_snapshot'`).length).toBe(1);
  }, 60_000);

  it("include_vault_key needs the confirmation headers (428, nothing taken), then bundles the key", async () => {
    const count = async () => (await h.t.sql`select 1 from db_backups where kind = 'snapshot'`).length;
    const before = await count();
    const refused = await h.call("/api/v1/admin/db/snapshot", { method: "POST", ...json({ include_vault_key: true }) });
    expect(refused.status).toBe(428);
    expect((await refused.json()).detail).toContain("SNAPSHOT_WITH_VAULT_KEY");
    expect(await count()).toBe(before);
    const bad = await h.call("/api/v1/admin/db/snapshot", { method: "POST", ...json({ include_vault_key: "yes" }) });
    expect(bad.status).toBe(422);
    const viewer = await h.call("/api/v1/admin/db/snapshot", { method: "POST", token: h.viewerToken });
    expect(viewer.status).toBe(403);

    const init = json({ include_vault_key: true });
    const res = await h.call("/api/v1/admin/db/snapshot", {
      method: "POST",
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...confirmHeaders("SNAPSHOT_WITH_VAULT_KEY", "snapshot-key-0001") },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.vault_key_included).toBe(true);
    keyed = body;
    const files = await members(body.path);
    expect(files.get("vault.key")!.toString("utf8").trim()).toBe(TEST_VAULT_KEY);
    const [audit] = await h.t.sql<{ level: string }[]>`select level from audit_log where action = 'db_snapshot' order by id desc limit 1`;
    expect(audit!.level).toBe("warning");
  }, 60_000);

  it("snapshot -> wipe -> restore gives the same export and the uploads back; the key only with --with-vault-key", async () => {
    const before = await exportDoc();
    expect(before.hardware.length).toBeGreaterThan(1);
    await h.t.sql.unsafe("drop schema public cascade; create schema public; drop schema drizzle cascade");

    const lines: string[] = [];
    await restore(restoreConfig(), { archive: plain.path, force: true, log: (l) => lines.push(l) });
    expect(lines.join("\n")).toContain("verified 2 member(s) against the manifest");
    expect(existsSync(join(dataDir, "vault.key"))).toBe(false);
    expect(await exportDoc()).toEqual(before);
    const [logo] = await h.t.sql<{ bytes: Buffer }[]>`select bytes from uploads where name = 'login-logo-0123abcd.png'`;
    expect(Buffer.from(logo!.bytes).equals(LOGO)).toBe(true);

    // The plain snapshot holds no key: --with-vault-key is refused before anything is touched.
    await expect(restore(restoreConfig(), { archive: plain.path, force: true, withVaultKey: true })).rejects.toThrow(/holds no vault key/);

    // The restored database predates the keyed snapshot; the restore re-recorded it from the directory.
    const [rerecorded] = await h.t.sql<
      { kind: string; method: string }[]
    >`select kind, method from db_backups where filename = ${keyed.filename}`;
    expect(rerecorded).toEqual({ kind: "snapshot", method: "pg_dump" });
    await h.t.sql`delete from uploads`;
    await restore(restoreConfig(), { archive: keyed.path, force: true, withVaultKey: true });
    expect(readFileSync(join(dataDir, "vault.key"), "utf8").trim()).toBe(TEST_VAULT_KEY);
    expect((await h.t.sql`select 1 from uploads`).length).toBe(1);
    expect((await exportDoc()).hardware).toEqual(before.hardware);
  }, 120_000);

  it("a corrupted member (a consistent archive whose member no longer matches the manifest) is refused, nothing changed", async () => {
    const files = await members(plain.path);
    const logo = Buffer.from(files.get("uploads/branding/login-logo-0123abcd.png")!);
    logo[3]! ^= 0xff;
    files.set("uploads/branding/login-logo-0123abcd.png", logo);
    const scratch = mkdtempSync(join(tmpdir(), "svc-snapshot-bad-"));
    try {
      const bad = join(scratch, plain.filename);
      await repack(bad, files);
      await h.t.sql`insert into hardware (name, role) values ('marker-after-snapshot', 'server')`;
      await expect(restore(restoreConfig(), { archive: bad, force: true })).rejects.toThrow(
        /uploads\/branding\/login-logo-0123abcd\.png is corrupt/,
      );
      // An extra member not in the manifest is refused too.
      files.set("uploads/branding/login-logo-0123abcd.png", files.get("uploads/branding/login-logo-0123abcd.png")!);
      const extra = new Map(files);
      extra.set("uploads/branding/evil.png", Buffer.from("x"));
      await repack(bad, extra);
      await expect(restore(restoreConfig(), { archive: bad, force: true })).rejects.toThrow(/refused|corrupt|not in the manifest/);
      const [marker] = await h.t.sql`select 1 from hardware where name = 'marker-after-snapshot'`;
      expect(marker).toBeDefined();
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("snapshot of the embedded database (PGlite)", () => {
  it("bundles PGlite's data directory and the uploads rows; the members check against the manifest", async () => {
    const pdir = mkdtempSync(join(tmpdir(), "svc-pglite-snapshot-"));
    const db = new PGlite();
    try {
      await db.exec(
        "create table uploads (id serial primary key, kind text not null, name text not null, content_type text not null, bytes bytea not null)",
      );
      await db.query("insert into uploads (kind, name, content_type, bytes) values ('avatars', 'avatar-01.png', 'image/png', $1)", [LOGO]);
      const store = nodeBackupStore({ dir: pdir, pglite: db });
      const archive = await store.writeSnapshot("cb-snapshot-20260101T000000000Z", {
        version: "9.9.9",
        vaultKeyId: "k1",
        includeVaultKey: false,
      });
      expect(archive).toMatchObject({ filename: "cb-snapshot-20260101T000000000Z.tar.gz", method: "pglite" });
      const manifest = await unpackSnapshot(join(pdir, archive.filename), join(pdir, "unpacked"));
      expect(manifest).toMatchObject({ version: "9.9.9", vault_key_id: "k1", vault_key_included: false, method: "pglite" });
      expect(manifest.members.map((m) => m.name)).toEqual(["db.tar.gz", "uploads/avatars/avatar-01.png"]);
      expect(readFileSync(join(pdir, "unpacked", "uploads/avatars/avatar-01.png")).equals(LOGO)).toBe(true);
    } finally {
      await db.close();
      rmSync(pdir, { recursive: true, force: true });
    }
  }, 90_000);
});
