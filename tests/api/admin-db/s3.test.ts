// The backup settings and the S3 target, against s3rver (a real S3 API server) on 127.0.0.51: settings
// read back without the secret, backup/test ok / 400 without a bucket / 502 with a wrong key, a backup
// uploaded byte for byte, S3 and local retention deleting the oldest.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeBackupStore } from "../../../runtime/backups/node-backup-store.ts";
import { createHarness, json, type Harness } from "../audit/harness.ts";

const dir = mkdtempSync(join(tmpdir(), "svc-backups-s3-"));
const s3dir = mkdtempSync(join(tmpdir(), "svc-s3rver-"));
const ENDPOINT = "http://127.0.0.51:4569";
let h: Harness;
let server: S3rver;
const s3 = new S3Client({
  region: "us-east-1",
  endpoint: ENDPOINT,
  forcePathStyle: true,
  credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
});

beforeAll(async () => {
  server = new S3rver({
    address: "127.0.0.51",
    port: 4569,
    directory: s3dir,
    silent: true,
    configureBuckets: [{ name: "backups", configs: [] }],
  });
  await server.run();
  h = await createHarness();
  const { config } = h.t.runtime.deps;
  h.t.runtime.deps.backups = nodeBackupStore({ dir, postgres: { url: config.DATABASE_URL!, sql: h.t.runtime.database.sql! } });
}, 60_000);
afterAll(async () => {
  s3.destroy();
  await h?.t.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(s3dir, { recursive: true, force: true });
});

const put = (body: unknown, token?: string) =>
  h.call("/api/v1/admin/settings/backup", { method: "PUT", ...json(body), ...(token ? { token } : {}) });

describe("backup settings and S3", () => {
  it("has the reference's defaults and refuses a viewer", async () => {
    const res = await h.call("/api/v1/admin/settings/backup");
    expect(await res.json()).toEqual({
      backup_s3_bucket: null,
      backup_s3_endpoint_url: null,
      backup_s3_access_key_id: null,
      backup_s3_secret_key_set: false,
      backup_s3_region: "us-east-1",
      backup_s3_prefix: "circuitbreaker/backups/",
      backup_s3_retention_count: 30,
      backup_local_retention_count: 7,
      backup_schedule: "0 3 * * *",
    });
    expect((await put({ backup_s3_bucket: "x1x" }, h.viewerToken)).status).toBe(403);
    expect((await h.call("/api/v1/admin/settings/backup/test", { method: "POST", token: h.viewerToken })).status).toBe(403);
  });

  it("test without a bucket is 400", async () => {
    const res = await h.call("/api/v1/admin/settings/backup/test", { method: "POST" });
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe("S3 bucket not configured");
  });

  it("refuses bad values with 422 naming the field, changing nothing", async () => {
    for (const [body, field] of [
      [{ backup_schedule: "every day" }, "backup_schedule"],
      [{ backup_s3_endpoint_url: "http://169.254.169.254/" }, "backup_s3_endpoint_url"],
      [{ backup_local_retention_count: 0 }, "backup_local_retention_count"],
      [{ backup_s3_bucket: "Not_A_Bucket" }, "backup_s3_bucket"],
    ] as const) {
      const res = await put(body);
      expect(res.status).toBe(422);
      expect(JSON.stringify((await res.json()).detail)).toContain(field);
    }
    expect((await (await h.call("/api/v1/admin/settings/backup")).json()).backup_schedule).toBe("0 3 * * *");
  });

  it("stores the secret sealed, answers only *_set, and a wrong key fails the test with 502 (s3rver checks the key id, not SigV4 signatures)", async () => {
    const res = await put({
      backup_s3_bucket: "backups",
      backup_s3_endpoint_url: ENDPOINT,
      backup_s3_access_key_id: "WRONGKEY",
      backup_s3_secret_key: "wrong-secret",
      backup_s3_prefix: "lab/",
      backup_s3_retention_count: 2,
      backup_local_retention_count: 2,
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("wrong-secret");
    expect(JSON.parse(text)).toMatchObject({ backup_s3_bucket: "backups", backup_s3_secret_key_set: true });
    const [stored] = await h.t.sql<
      { value: string }[]
    >`select value from server_secrets where name = 'settings.backup.backup_s3_secret_key'`;
    expect(stored!.value).not.toContain("wrong-secret");
    const test = await h.call("/api/v1/admin/settings/backup/test", { method: "POST" });
    expect(test.status).toBe(502);
    expect((await test.json()).detail).toContain("InvalidAccessKeyId");
  });

  it("test answers ok with the right key", async () => {
    expect((await put({ backup_s3_access_key_id: "S3RVER", backup_s3_secret_key: "S3RVER" })).status).toBe(200);
    const res = await h.call("/api/v1/admin/settings/backup/test", { method: "POST" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", bucket: "backups", endpoint: ENDPOINT });
  });

  it("uploads each backup byte for byte and keeps the retention counts in S3 and locally", async () => {
    const taken: { filename: string; s3_key: string | null; size_bytes: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await h.call("/api/v1/admin/db/backup", { method: "POST" });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.retention.s3_error).toBeNull();
      taken.push(body.backup);
    }
    for (const b of taken) expect(b.s3_key).toBe(`lab/${b.filename}`);
    const last = taken[2]!;
    const object = await s3.send(new GetObjectCommand({ Bucket: "backups", Key: last.s3_key! }));
    const remote = Buffer.from(await object.Body!.transformToByteArray());
    const local = Buffer.from(await (await h.call(`/api/v1/admin/db/backups/${last.filename}`)).arrayBuffer());
    expect(remote.equals(local)).toBe(true);

    const listed = await s3.send(new ListObjectsV2Command({ Bucket: "backups", Prefix: "lab/" }));
    expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual([taken[1]!.s3_key, taken[2]!.s3_key]);
    const snapshots = (await (await h.call("/api/v1/admin/db/snapshots")).json()).snapshots.map((s: { filename: string }) => s.filename);
    expect(snapshots).toEqual([taken[1]!.filename, taken[2]!.filename]);
    expect(
      readdirSync(dir)
        .filter((n) => n.endsWith(".sql.gz"))
        .sort(),
    ).toEqual([taken[1]!.filename, taken[2]!.filename]);
    const [gone] = await h.t.sql<{ deleted_at: Date | null }[]>`select deleted_at from db_backups where filename = ${taken[0]!.filename}`;
    expect(gone!.deleted_at).not.toBeNull();
    expect((await h.call(`/api/v1/admin/db/backups/${taken[0]!.filename}`)).status).toBe(404);
  }, 60_000);

  it("clears the secret with an empty string", async () => {
    const res = await put({ backup_s3_secret_key: "" });
    expect((await res.json()).backup_s3_secret_key_set).toBe(false);
  });
});
