// The S3 backup target under the outbound policy: an endpoint whose name resolves to loopback (as `vm` in
// /etc/hosts would; here through the resolver hooks of the API and the store) is a 422 when saved, and
// refused when backup/test connects if it resolves there only by then: the listener on loopback never
// sees a connection. Metadata in any notation is refused when saved.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeBackupStore } from "../../../runtime/backups/node-backup-store.ts";
import type { HostResolver } from "../../../shared/net/resolved-host.ts";
import { createHarness, json, type Harness } from "../audit/harness.ts";

const dir = mkdtempSync(join(tmpdir(), "svc-backups-s3-policy-"));
let h: Harness;
let listener: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as { port: number }).port;
  h = await createHarness();
  const { config } = h.t.runtime.deps;
  h.t.runtime.deps.backups = nodeBackupStore({
    dir,
    postgres: { url: config.DATABASE_URL!, sql: h.t.runtime.database.sql! },
    // s3.vm.test resolves to loopback, as a name in /etc/hosts would.
    resolve: async (name) => (name === "s3.vm.test" ? [{ address: "127.0.0.1", family: 4 }] : []),
  });
}, 60_000);
afterAll(async () => {
  await h?.t.close();
  await new Promise((resolve) => listener?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const vmResolver: HostResolver = async (name) => (name === "s3.vm.test" ? ["127.0.0.1"] : []);
const put = (body: unknown) => h.call("/api/v1/admin/settings/backup", { method: "PUT", ...json(body) });

describe("S3 endpoint and the outbound policy", () => {
  it("refuses metadata and link-local endpoints in any notation when saved", async () => {
    for (const url of [
      "http://2852039166/",
      "http://0xa9.0xfe.0xa9.0xfe:9000/",
      "http://[::ffff:a9fe:a9fe]/",
      "http://[fe80::1]:9000/",
      "http://metadata.google.internal./",
    ]) {
      const res = await put({ backup_s3_endpoint_url: url });
      expect(res.status, url).toBe(422);
      expect(Object.keys((await res.json()).fields), url).toEqual(["backup_s3_endpoint_url"]);
    }
  });

  it("refuses an endpoint whose name resolves to loopback when saved, naming the host only", async () => {
    expect(
      (await h.call("/api/v1/settings", { method: "PUT", ...json({ outbound_policy: { allow_private: true, allow_loopback: false } }) }))
        .status,
    ).toBe(200);
    h.t.runtime.deps.resolveHost = vmResolver;
    try {
      const res = await put({ backup_s3_bucket: "backups", backup_s3_endpoint_url: `http://s3.vm.test:${port}/SECRETPATH` });
      expect(res.status).toBe(422);
      const body = await res.json();
      expect(body.fields.backup_s3_endpoint_url).toMatch(/s3\.vm\.test resolves to a refused address.*loopback/);
      expect(JSON.stringify(body)).not.toContain("SECRETPATH");
      expect((await (await h.call("/api/v1/admin/settings/backup")).json()).backup_s3_endpoint_url).toBeNull();
    } finally {
      delete h.t.runtime.deps.resolveHost;
    }
  });

  it("backup/test does not connect to a name that resolves to loopback only by the time it connects", async () => {
    // Saved while the name did not resolve here (no resolver: as on the edge, or before DNS changed).
    expect(
      (
        await put({
          backup_s3_bucket: "backups",
          backup_s3_endpoint_url: `http://s3.vm.test:${port}`,
          backup_s3_access_key_id: "K",
          backup_s3_secret_key: "S",
        })
      ).status,
    ).toBe(200);
    const res = await h.call("/api/v1/admin/settings/backup/test", { method: "POST" });
    expect(res.status).toBe(502);
    expect((await res.json()).detail).toMatch(/s3\.vm\.test resolves to a refused address.*loopback/);
    expect(connections).toBe(0);
  });
});
