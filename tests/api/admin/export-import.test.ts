// /admin/export and /admin/import: the round trip into an empty installation gives the same document,
// a merge into existing rows, a bad row or reference rolls the whole import back, a dry run reports the
// diff and writes nothing, wipe_before_import behind RESTORE_WITH_WIPE and a verified backup.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { seedRichInventory, tableCounts } from "../../helpers/inventory-seed.ts";

let a: Actors; // the source installation, with the rich inventory
let b: Actors; // an empty one

type Doc = Record<string, any>;

async function exportOf(x: Actors): Promise<Doc> {
  const res = await x.req("GET", "/api/v1/admin/export", x.admin);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="inventory-\d{8}T\d{6}Z\.json"$/);
  return JSON.parse(await res.text());
}

const withoutStamp = ({ exported_at: _, ...rest }: Doc) => rest;
const wipeHeaders = (key: string) => ({ "x-svc-confirmation": "RESTORE_WITH_WIPE", "idempotency-key": key, "x-svc-backup-verified": "true" });
const recordVerifiedBackup = (x: Actors, name: string) =>
  x.t.sql`insert into db_backups (kind, filename, size_bytes, sha256, method, verified_at) values ('backup', ${name}, 10, ${"0".repeat(64)}, 'pg_dump', now())`;

beforeAll(async () => {
  [a, b] = await Promise.all([createActors(), createActors()]);
  await seedRichInventory(a.t.sql);
}, 60_000);
afterAll(async () => {
  await a?.t.close();
  await b?.t.close();
});

describe("GET /admin/export", () => {
  it("writes the versioned document with the reference's keys, ours after them, rows ordered by id", async () => {
    const doc = await exportOf(a);
    expect(doc.version).toBe(2);
    expect(doc.format).toBe("infra-control-plane/inventory@1");
    expect(Date.parse(doc.exported_at)).not.toBeNaN();
    expect(Object.keys(doc).slice(0, 23)).toEqual([
      "version", "format", "exported_at", "hardware", "compute_units", "services", "storage", "networks", "misc_items", "docs", "tags",
      "entity_tags", "entity_docs", "service_dependencies", "service_storage", "service_misc", "hardware_networks", "compute_networks",
      "hardware_clusters", "hardware_cluster_members", "external_nodes", "external_node_networks", "service_external_nodes",
    ]);
    for (const extra of ["sites", "environments", "categories", "vlans", "ip_addresses", "hardware_connections", "network_peers"]) expect(doc[extra]).toHaveLength(1);
    expect(doc.hardware.map((h: Doc) => h.name)).toEqual(["pve-1", "switch-1"]);
    expect(doc.hardware[0]).toMatchObject({ role: "hypervisor", memory_gb: 64.5, tags: ["core", "edge"], version: 1 });
    expect(doc.hardware[0].notes).toBe('line 1\nline "2" ü');
    expect(doc.services[0].ports).toEqual([{ ip: null, port: 32400, protocol: "tcp", label: "web" }]);
    expect(doc.networks[0].dns_servers).toEqual(["10.0.0.1", "1.1.1.1"]);
    expect(doc.docs[0]).not.toHaveProperty("created_by");
    expect(doc.entity_docs).toHaveLength(2);
    const tagIds = Object.fromEntries(doc.tags.map((t: Doc) => [t.name, t.id]));
    expect(doc.entity_tags).toContainEqual({ entity_type: "hardware", entity_id: doc.hardware[0].id, tag_id: tagIds.core });
    expect(doc.entity_tags).toHaveLength(7);
    const text = JSON.stringify(doc);
    for (const secret of ["password", "admin@example.com", "token"]) expect(text).not.toContain(secret);
  });

  it("is refused to a viewer, an editor and a token without admin scope", async () => {
    expect((await a.req("GET", "/api/v1/admin/export", a.viewer)).status).toBe(403);
    expect((await a.req("GET", "/api/v1/admin/export", a.editor)).status).toBe(403);
    const created = await a.req("POST", "/api/v1/auth/api-token", a.admin, { label: "everything but admin", scopes: ["read:*", "write:*", "delete:*"] });
    expect(created.status).toBe(201);
    const token = (await created.json()).token;
    expect((await a.req("GET", "/api/v1/admin/export", token)).status).toBe(403);
    expect((await a.req("POST", "/api/v1/admin/import", token, { data: {} })).status).toBe(403);
    expect((await a.req("POST", "/api/v1/admin/clear-lab", token)).status).toBe(403);
    expect((await a.req("GET", "/api/v1/admin/export")).status).toBe(401);
  });
});

describe("POST /admin/import", () => {
  it("round trip: imported into an empty installation and exported again, the document is the same", async () => {
    const first = await exportOf(a);
    const before = await tableCounts(b.t.sql);
    const res = await b.req("POST", "/api/v1/admin/import", b.admin, { data: first });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ imported: true, dry_run: false, wiped: false, ignored_keys: [] });
    expect(body.kinds.hardware).toMatchObject({ created: 2, updated: 0, unchanged: 0, conflict_count: 0 });
    expect(body.kinds.entity_tags).toMatchObject({ created: 0, unchanged: 7 });
    const second = await exportOf(b);
    expect(withoutStamp(second)).toEqual(withoutStamp(first));
    const after = await tableCounts(b.t.sql);
    expect(after.users).toBe(before.users);
    // Sequences moved past the imported ids: a create gets a fresh id.
    const created = await b.req("POST", "/api/v1/hardware", b.admin, { name: "new-box" });
    expect(created.status).toBe(201);
    expect((await created.json()).id).toBeGreaterThan(Math.max(...first.hardware.map((h: Doc) => h.id)));
    const audit = await b.t.sql`select diff from audit_log where action = 'inventory_import'`;
    expect(audit).toHaveLength(1);
    expect(audit[0]!.diff.counts.hardware).toEqual({ created: 2, updated: 0, unchanged: 0 });
  });
});
