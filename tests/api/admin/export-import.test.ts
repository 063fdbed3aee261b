// /admin/export and /admin/import: the round trip into an empty installation gives the same document,
// a merge into existing rows, a bad row or reference rolls the whole import back, a dry run reports the
// diff and writes nothing, wipe_before_import behind RESTORE_WITH_WIPE and a verified backup.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cryptoRandom, systemClock } from "../../../shared/clock.ts";
import { exportInventory } from "../../../shared/verbs/transfer/export-inventory.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
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
const wipeHeaders = (key: string) => ({
  "x-svc-confirmation": "RESTORE_WITH_WIPE",
  "idempotency-key": key,
  "x-svc-backup-verified": "true",
});
const recordVerifiedBackup = (x: Actors, name: string) =>
  x.t
    .sql`insert into db_backups (kind, filename, size_bytes, sha256, method, verified_at) values ('backup', ${name}, 10, ${"0".repeat(64)}, 'pg_dump', now())`;

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
      "version",
      "format",
      "exported_at",
      "hardware",
      "compute_units",
      "services",
      "storage",
      "networks",
      "misc_items",
      "docs",
      "tags",
      "entity_tags",
      "entity_docs",
      "service_dependencies",
      "service_storage",
      "service_misc",
      "hardware_networks",
      "compute_networks",
      "hardware_clusters",
      "hardware_cluster_members",
      "external_nodes",
      "external_node_networks",
      "service_external_nodes",
    ]);
    for (const extra of [
      "sites",
      "environments",
      "categories",
      "vlans",
      "ip_addresses",
      "hardware_connections",
      "network_peers",
      "racks",
      "rack_reservations",
      "vrfs",
      "prefixes",
      "rear_ports",
      "front_ports",
      "power_ports",
      "power_outlets",
    ])
      expect(doc[extra]).toHaveLength(1);
    expect(doc.interfaces.map((i: Doc) => [i.name, i.type])).toEqual([
      ["bond0", "lag"],
      ["eth0", "copper"],
    ]);
    expect(doc.cables.map((c: Doc) => [c.a_kind, c.b_kind, c.label])).toEqual([
      ["interface", "front_port", "C-1"],
      ["power_outlet", "power_port", null],
    ]);
    expect(doc.vrfs[0]).toMatchObject({ name: "customer-a", rd: "65000:1", enforce_unique: true, tags: ["tenant"] });
    expect(doc.prefixes[0]).toMatchObject({ prefix: "10.0.0.0/16", vrf_id: doc.vrfs[0].id, status: "container", is_pool: false });
    expect(doc.hardware.map((h: Doc) => h.name)).toEqual(["pve-1", "switch-1"]);
    expect(doc.hardware[0]).toMatchObject({ role: "hypervisor", memory_gb: 64.5, tags: ["core", "edge"], version: 1 });
    expect(doc.hardware[0]).toMatchObject({ rack_id: doc.racks[0].id, rack_unit: 3, u_height: 2, rack_face: "both" });
    expect(doc.racks[0]).toMatchObject({
      name: "rack-a",
      u_height: 24,
      numbering: "top_down",
      width: 19,
      facility_id: "A01",
      tags: ["core"],
    });
    expect(doc.rack_reservations[0]).toMatchObject({ rack_id: doc.racks[0].id, first_unit: 20, u_count: 2, reason: "UPS" });
    expect(doc.hardware[0].notes).toBe('line 1\nline "2" ü');
    expect(doc.services[0].ports).toEqual([{ ip: null, port: 32400, protocol: "tcp", label: "web" }]);
    expect(doc.networks[0].dns_servers).toEqual(["10.0.0.1", "1.1.1.1"]);
    expect(doc.docs[0]).not.toHaveProperty("created_by");
    expect(doc.entity_docs).toHaveLength(2);
    // The journal, last, without its authors (users are not exported).
    expect(Object.keys(doc).at(-1)).toBe("journal_entries");
    expect(doc.journal_entries.map((j: Doc) => [j.object_type, j.kind, j.comments])).toEqual([
      ["hardware", "warning", "PSU **fan** noisy"],
      ["vlan", "info", "trunked to the core"],
    ]);
    expect(doc.journal_entries[0]).not.toHaveProperty("created_by");
    const tagIds = Object.fromEntries(doc.tags.map((t: Doc) => [t.name, t.id]));
    expect(doc.entity_tags).toContainEqual({ entity_type: "hardware", entity_id: doc.hardware[0].id, tag_id: tagIds.core });
    expect(doc.entity_tags).toHaveLength(7);
    const text = JSON.stringify(doc);
    for (const secret of ["password", "admin@example.com", "token"]) expect(text).not.toContain(secret);
  });

  it("is one snapshot: rows written and deleted while it streams (one row per page) do not show", async () => {
    const ctx = systemContext({ db: a.t.runtime.database.provider.lease().db, clock: systemClock, random: cryptoRandom });
    const before = await exportOf(a);
    let text = "";
    let writes = 0;
    await exportInventory({
      ctx,
      input: {
        pageSize: 1,
        write: async (chunk) => {
          text += chunk;
          // After the first hardware page, another connection adds a row and removes a link.
          if (++writes === 3) {
            await a.t.sql`insert into hardware (name) values ('written during the export')`;
            await a.t.sql`delete from service_misc`;
          }
        },
      },
    });
    const during = JSON.parse(text);
    expect(withoutStamp(during)).toEqual(withoutStamp(before));
    const after = await exportOf(a);
    expect(after.hardware).toHaveLength(before.hardware.length + 1);
    expect(after.service_misc).toHaveLength(0);
  });

  it("is refused to a viewer, an editor and a token without admin scope", async () => {
    expect((await a.req("GET", "/api/v1/admin/export", a.viewer)).status).toBe(403);
    expect((await a.req("GET", "/api/v1/admin/export", a.editor)).status).toBe(403);
    const created = await a.req("POST", "/api/v1/auth/api-token", a.admin, {
      label: "everything but admin",
      scopes: ["read:*", "write:*", "delete:*"],
    });
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
    expect(body.kinds.hardware).toMatchObject({ created: first.hardware.length, updated: 0, unchanged: 0, conflict_count: 0 });
    expect(body.kinds.entity_tags).toMatchObject({ created: 0, unchanged: first.entity_tags.length });
    expect(body.kinds.journal_entries).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
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
    const runs = await b.t.sql`select outcome, rows_touched, detail from job_runs where job = 'inventory_import'`;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      outcome: "success",
      detail: { wiped: false, counts: { hardware: { created: first.hardware.length } } },
    });
    expect(runs[0]!.rows_touched).toBeGreaterThan(20);
    expect(audit[0]!.diff.counts.hardware).toEqual({ created: first.hardware.length, updated: 0, unchanged: 0 });
  });
});

describe("POST /admin/import merging and refusing", () => {
  it("merges into existing rows: changed rows updated, new rows created, the rest unchanged", async () => {
    const doc = await exportOf(b);
    const hw = doc.hardware as Doc[];
    hw[0]!.name = "pve-1-renamed";
    hw.push({ ...hw[1], id: 900, name: "added", tags: [] });
    const res = await b.req("POST", "/api/v1/admin/import", b.admin, { data: { hardware: hw } });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.kinds).toEqual({ hardware: { created: 1, updated: 1, unchanged: hw.length - 2, conflicts: [], conflict_count: 0 } });
    const rows = await b.t.sql`select id, name from hardware where id in (${hw[0]!.id}, 900) order by id`;
    expect(rows.map((r) => r.name)).toEqual(["pve-1-renamed", "added"]);
    // The sequence moved past 900.
    const created = await b.req("POST", "/api/v1/hardware", b.admin, { name: "after-900" });
    expect((await created.json()).id).toBe(901);
  });

  it("a row breaking the create rules is a 422 with its JSON path, and nothing is written", async () => {
    const doc = await exportOf(b);
    const before = await tableCounts(b.t.sql);
    const data = {
      sites: [{ id: 70, name: "new site" }],
      hardware: [{ ...doc.hardware[0], name: "   " }],
      compute_units: [{ ...doc.compute_units[0], kind: "lpar" }],
    };
    const res = await b.req("POST", "/api/v1/admin/import", b.admin, { data });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error_code).toBe("VALIDATION_ERROR");
    expect(Object.keys(body.fields)).toEqual(expect.arrayContaining(["data.hardware.0.name", "data.compute_units.0.kind"]));
    expect(await tableCounts(b.t.sql)).toEqual(before);
  });

  it("a reference to a row neither in the document nor in the database rolls the whole import back (422 naming kind and id)", async () => {
    const before = await tableCounts(b.t.sql);
    const data = {
      sites: [{ id: 71, name: "written first, rolled back" }],
      hardware: [{ id: 950, name: "orphan-parent-ok" }],
      compute_units: [{ id: 951, name: "orphan", kind: "vm", hardware_id: 4242 }],
    };
    const res = await b.req("POST", "/api/v1/admin/import", b.admin, { data });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body).toMatchObject({ error_code: "VALIDATION_ERROR", kind: "compute_units", id: 951 });
    expect(body.fields["data.compute_units.0"]).toMatch(
      /hardware_id 4242 names a hardware row that is neither in the document nor in the database/,
    );
    expect(await tableCounts(b.t.sql)).toEqual(before);
    expect(await b.t.sql`select 1 from sites where id = 71`).toHaveLength(0);
  });

  it("a journal entry on an object neither in the document nor in the database, or of an unknown kind, is refused; nothing written", async () => {
    const before = await tableCounts(b.t.sql);
    const entry = { id: 960, object_type: "hardware", object_id: 4343, kind: "info", comments: "orphan note" };
    const orphan = await b.req("POST", "/api/v1/admin/import", b.admin, { data: { journal_entries: [entry] } });
    expect(orphan.status).toBe(422);
    const body = await orphan.json();
    expect(body).toMatchObject({ kind: "journal_entries", id: 960 });
    expect(body.fields["data.journal_entries.0"]).toMatch(
      /object_id 4343 names a hardware row that is neither in the document nor in the database/,
    );
    const badKind = await b.req("POST", "/api/v1/admin/import", b.admin, {
      data: {
        journal_entries: [
          { ...entry, object_type: "printer" },
          { ...entry, id: 961, kind: "urgent" },
        ],
      },
    });
    expect(badKind.status).toBe(422);
    expect(Object.keys((await badKind.json()).fields)).toEqual(
      expect.arrayContaining(["data.journal_entries.0.object_type", "data.journal_entries.1.kind"]),
    );
    expect(await tableCounts(b.t.sql)).toEqual(before);
  });

  it("a unique value held by another row is a conflict naming both, and nothing is written", async () => {
    const before = await tableCounts(b.t.sql);
    const res = await b.req("POST", "/api/v1/admin/import", b.admin, { data: { tags: [{ id: 77, name: "core" }] } });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body).toMatchObject({ kind: "tags", id: 77 });
    expect(body.fields["data.tags.0"]).toMatch(/name is already held by tags \d+/);
    expect(await tableCounts(b.t.sql)).toEqual(before);
    const [run] = await b.t.sql`select outcome, error from job_runs where job = 'inventory_import' order by id desc limit 1`;
    expect(run!.outcome).toBe("failed");
    expect(run!.error).toMatch(/^VALIDATION_ERROR: .*tags 77/);
  });

  it("takes a reference-format document: columns we lack are dropped, a missing slug derived, entity_tags fill the tags arrays", async () => {
    const data = {
      version: 2,
      exported_at: "2024-01-01T00:00:00Z",
      layouts: [{ id: 1 }],
      tags: [{ id: 600, name: "from-reference", color: "#123456" }],
      hardware: [
        {
          id: 601,
          name: "ref-box",
          vendor_icon_slug: "dell",
          wan_uplink: "fiber",
          created_at: "2024-01-01T00:00:00Z",
          updated_at: "2024-01-02T00:00:00Z",
        },
      ],
      services: [{ id: 602, name: "Ref Service", hardware_id: 601 }],
      entity_tags: [{ id: 1, entity_type: "hardware", entity_id: 601, tag_id: 600 }],
    };
    const res = await b.req("POST", "/api/v1/admin/import", b.admin, { data });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.ignored_keys).toEqual(["layouts"]);
    expect(body.kinds.entity_tags).toMatchObject({ created: 1, unchanged: 0 });
    const [hw] = await b.t.sql`select tags, created_at, version from hardware where id = 601`;
    expect(hw).toMatchObject({ tags: ["from-reference"], version: 2 });
    expect(new Date(hw!.created_at).toISOString()).toBe("2024-01-01T00:00:00.000Z");
    const [svc] = await b.t.sql`select slug, tags from services where id = 602`;
    expect(svc).toEqual({ slug: "ref-service-602", tags: [] });
  });

  it("a row the database refuses (a check constraint) is a 422 naming that row, nothing written; a dry run lists it", async () => {
    const before = await tableCounts(b.t.sql);
    const [h1, h2] = await b.t.sql`select id from hardware order by id limit 2`;
    const data = {
      sites: [{ id: 72, name: "rolled back too" }],
      hardware_connections: [
        { id: 700, source_hardware_id: h1!.id, target_hardware_id: h2!.id, connection_type: "fiber" },
        { id: 701, source_hardware_id: h1!.id, target_hardware_id: h1!.id },
      ],
    };
    const res = await b.req("POST", "/api/v1/admin/import", b.admin, { data });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body).toMatchObject({ kind: "hardware_connections", id: 701 });
    expect(body.fields["data.hardware_connections.1"]).toMatch(/hardware_connections_not_self/);
    expect(await tableCounts(b.t.sql)).toEqual(before);
    const dry = await (await b.req("POST", "/api/v1/admin/import?dry_run=true", b.admin, { data })).json();
    expect(dry.kinds.hardware_connections).toMatchObject({ created: 1, conflict_count: 1, conflicts: [{ id: 701, index: 1 }] });
    expect(await tableCounts(b.t.sql)).toEqual(before);
  });

  it("rack placements that overlap, run past the rack or sit at another site are a 422 naming the row; a dry run lists them", async () => {
    const before = await tableCounts(b.t.sql);
    const data = {
      sites: [
        { id: 9101, name: "rack import site" },
        { id: 9102, name: "rack import other site" },
      ],
      racks: [{ id: 9201, site_id: 9101, name: "imp-r", u_height: 10 }],
      rack_reservations: [{ id: 9251, rack_id: 9201, first_unit: 9, u_count: 2, reason: "UPS" }],
      hardware: [
        { id: 9301, name: "imp-a", site_id: 9101, rack_id: 9201, rack_unit: 1, u_height: 2, rack_face: "both" },
        { id: 9302, name: "imp-b", site_id: 9101, rack_id: 9201, rack_unit: 2, u_height: 1, rack_face: "rear" },
        { id: 9303, name: "imp-c", site_id: 9102, rack_id: 9201, rack_unit: 5 },
        { id: 9304, name: "imp-d", site_id: 9101, rack_id: 9201, rack_unit: 8, u_height: 2 },
      ],
    };
    const res = await b.req("POST", "/api/v1/admin/import", b.admin, { data });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body).toMatchObject({ kind: "hardware", id: 9302 });
    expect(body.fields["data.hardware.1"]).toBe("at unit 2, overlapping hardware 'imp-a' (id 9301) in rack 9201");
    expect(await tableCounts(b.t.sql)).toEqual(before);
    const dry = await (await b.req("POST", "/api/v1/admin/import?dry_run=true", b.admin, { data })).json();
    expect(dry.kinds.hardware.conflicts).toEqual([
      { id: 9302, index: 1, reason: "at unit 2, overlapping hardware 'imp-a' (id 9301) in rack 9201" },
      { id: 9303, index: 2, reason: "rack 9201 is at site 9101, the node at site 9102" },
      { id: 9304, index: 3, reason: "at units 8-9, overlapping reservation 9251 (UPS) in rack 9201" },
    ]);
    expect(dry.kinds.rack_reservations).toMatchObject({ created: 1, conflict_count: 0 });
    expect(await tableCounts(b.t.sql)).toEqual(before);
  });

  it("a key given twice in one kind is a conflict naming both positions", async () => {
    const before = await tableCounts(b.t.sql);
    const data = {
      misc_items: [
        { id: 880, name: "one" },
        { id: 881, name: "two" },
        { id: 880, name: "again" },
      ],
    };
    const res = await b.req("POST", "/api/v1/admin/import", b.admin, { data });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body).toMatchObject({ kind: "misc_items", id: 880 });
    expect(body.fields["data.misc_items.2"]).toBe("the key 880 is already at index 0 of misc_items");
    expect(await tableCounts(b.t.sql)).toEqual(before);
    const dry = await (await b.req("POST", "/api/v1/admin/import?dry_run=true", b.admin, { data })).json();
    expect(dry.kinds.misc_items).toMatchObject({
      created: 2,
      conflict_count: 1,
      conflicts: [{ id: 880, index: 2, reason: "the key 880 is already at index 0 of misc_items" }],
    });
  });

  it("refuses a body that is not {wipe_before_import?, data}", async () => {
    for (const body of [{}, { data: [] }, { data: {}, wipe: true }, { data: { hardware: {} } }, { data: { hardware: [42] } }]) {
      const res = await b.req("POST", "/api/v1/admin/import", b.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await res.json()).error_code).toBe("VALIDATION_ERROR");
    }
  });

  it("a viewer and an editor may not import or clear the lab", async () => {
    for (const token of [b.viewer, b.editor]) {
      expect((await b.req("POST", "/api/v1/admin/import", token, { data: {} })).status).toBe(403);
      expect((await b.req("POST", "/api/v1/admin/clear-lab", token)).status).toBe(403);
    }
  });
});

describe("POST /admin/import?dry_run=true", () => {
  it("answers the diff (created, updated, unchanged, conflicts) and writes nothing", async () => {
    const doc = await exportOf(b);
    const hw = doc.hardware as Doc[];
    const data = {
      ...doc,
      hardware: [...hw.slice(0, -1), { ...hw[hw.length - 1], notes: "changed" }, { id: 990, name: "would be new" }],
      compute_units: [...doc.compute_units, { id: 991, name: "dangling", kind: "container", hardware_id: 5555 }],
      services: [...doc.services, { id: 992, name: "needs the dangling unit", compute_id: 991 }],
    };
    const before = await tableCounts(b.t.sql);
    const audits = (await b.t.sql`select count(*)::int as n from audit_log`)[0]!.n;
    const seq = (await b.t.sql`select last_value from hardware_id_seq`)[0]!.last_value;
    const res = await b.req("POST", "/api/v1/admin/import?dry_run=true", b.admin, { data });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ imported: false, dry_run: true });
    expect(body.kinds.hardware).toEqual({ created: 1, updated: 1, unchanged: hw.length - 1, conflicts: [], conflict_count: 0 });
    expect(body.kinds.compute_units).toMatchObject({ created: 0, updated: 0, unchanged: doc.compute_units.length, conflict_count: 1 });
    expect(body.kinds.compute_units.conflicts[0]).toMatchObject({ id: 991, index: doc.compute_units.length });
    expect(body.kinds.compute_units.conflicts[0].reason).toMatch(/hardware_id 5555/);
    // A row referring to a conflicting row conflicts too.
    expect(body.kinds.services.conflicts).toEqual([expect.objectContaining({ id: 992, reason: expect.stringMatching(/compute_id 991/) })]);
    expect(body.kinds.tags).toMatchObject({ unchanged: doc.tags.length, created: 0, updated: 0 });
    expect(await tableCounts(b.t.sql)).toEqual(before);
    expect((await b.t.sql`select count(*)::int as n from audit_log`)[0]!.n).toBe(audits);
    expect((await b.t.sql`select last_value from hardware_id_seq`)[0]!.last_value).toBe(seq);
    expect((await b.t.sql`select notes from hardware where id = ${hw[hw.length - 1]!.id}`)[0]!.notes).not.toBe("changed");
  });

  it("with wipe_before_import it needs no confirmation and still writes nothing", async () => {
    const before = await tableCounts(b.t.sql);
    const res = await b.req("POST", "/api/v1/admin/import?dry_run=true", b.admin, {
      wipe_before_import: true,
      data: { tags: [{ id: 1, name: "only" }] },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ imported: false, dry_run: true, wiped: true });
    expect(body.kinds.tags).toMatchObject({ created: 1, updated: 0, unchanged: 0 });
    expect(await tableCounts(b.t.sql)).toEqual(before);
  });
});

describe("wipe_before_import (RESTORE_WITH_WIPE)", () => {
  it("without the confirmation headers: 428 naming them, nothing changed", async () => {
    const before = await tableCounts(b.t.sql);
    const res = await b.req("POST", "/api/v1/admin/import", b.admin, { wipe_before_import: true, data: {} });
    expect(res.status).toBe(428);
    const body = await res.json();
    expect(body.error_code).toBe("CONFIRMATION_REQUIRED");
    expect(body.required).toEqual(["x-svc-confirmation", "idempotency-key", "x-svc-backup-verified"]);
    expect(await tableCounts(b.t.sql)).toEqual(before);
  });

  it("with the headers but no verified backup: 428 no_verified_backup, nothing changed", async () => {
    const before = await tableCounts(b.t.sql);
    const res = await b.req(
      "POST",
      "/api/v1/admin/import",
      b.admin,
      { wipe_before_import: true, data: {} },
      wipeHeaders("wipe-without-backup-1"),
    );
    expect(res.status).toBe(428);
    expect((await res.json()).reason).toBe("no_verified_backup");
    expect(await tableCounts(b.t.sql)).toEqual(before);
  });

  it("with a verified backup: the inventory becomes the document's, documents included; users stay", async () => {
    await recordVerifiedBackup(b, "cb-20261125T000000000Z.sql.gz");
    const source = await exportOf(a);
    const users = (await tableCounts(b.t.sql)).users;
    const res = await b.req(
      "POST",
      "/api/v1/admin/import",
      b.admin,
      { wipe_before_import: true, data: source },
      wipeHeaders("wipe-with-backup-01"),
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ imported: true, wiped: true });
    expect(withoutStamp(await exportOf(b))).toEqual(withoutStamp(source));
    expect((await tableCounts(b.t.sql)).users).toBe(users);
    const audit = await b.t.sql`select level, diff from audit_log where action = 'inventory_restore_with_wipe'`;
    expect(audit).toHaveLength(1);
    expect(audit[0]!.diff.backup).toBe("cb-20261125T000000000Z.sql.gz");
    // The same idempotency key replays the answer instead of wiping again.
    const again = await b.req(
      "POST",
      "/api/v1/admin/import",
      b.admin,
      { wipe_before_import: true, data: source },
      wipeHeaders("wipe-with-backup-01"),
    );
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });
});

describe("POST /admin/clear-lab", () => {
  const clearHeaders = (key: string) => ({ "x-svc-confirmation": "CLEAR_LAB", "idempotency-key": key, "x-svc-backup-verified": "true" });

  it("is refused without the headers and without a verified backup, changing nothing", async () => {
    const before = await tableCounts(a.t.sql);
    const bare = await a.req("POST", "/api/v1/admin/clear-lab", a.admin);
    expect(bare.status).toBe(428);
    expect((await bare.json()).required).toEqual(["x-svc-confirmation", "idempotency-key", "x-svc-backup-verified"]);
    const noBackup = await a.req("POST", "/api/v1/admin/clear-lab", a.admin, undefined, clearHeaders("clear-no-backup-1"));
    expect(noBackup.status).toBe(428);
    expect((await noBackup.json()).reason).toBe("no_verified_backup");
    expect(await tableCounts(a.t.sql)).toEqual(before);
  });

  it("with a verified backup deletes the inventory, its monitors and telemetry; documents, users and settings stay", async () => {
    const [hw] = await a.t.sql`select id from hardware order by id limit 1`;
    const [mon] = await a.t
      .sql`insert into monitors (name, check_type, host, target_type, target_id) values ('ping', 'icmp', '10.0.0.2', 'hardware', ${hw!.id}) returning id`;
    await a.t.sql`insert into monitor_events (monitor_id, event_type) values (${mon!.id}, 'up')`;
    await a.t.sql`insert into status_history (entity_type, entity_id, status) values ('hardware', ${hw!.id}, 'up')`.catch(() => undefined);
    await recordVerifiedBackup(a, "cb-20261125T000000001Z.sql.gz");
    const before = await tableCounts(a.t.sql);
    const res = await a.req("POST", "/api/v1/admin/clear-lab", a.admin, undefined, clearHeaders("clear-with-backup-1"));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ cleared: true, hardware: before.hardware, services: before.services, monitors: 1 });
    const after = await tableCounts(a.t.sql);
    for (const [table, n] of Object.entries(after)) {
      if (["docs", "users"].includes(table)) expect(n, table).toBe(before[table]);
      else expect(n, table).toBe(0);
    }
    expect(await a.t.sql`select 1 from monitor_events`).toHaveLength(0);
    expect(await a.t.sql`select 1 from status_history`).toHaveLength(0);
    const audit = await a.t.sql`select diff from audit_log where action = 'clear_lab'`;
    expect(audit).toHaveLength(1);
    expect(audit[0]!.diff.deleted.hardware).toBe(before.hardware);
  });
});

describe("OpenAPI", () => {
  it("documents the three operations under tag admin with their schemas and errors", async () => {
    const doc = await (await a.req("GET", "/api/openapi.json")).json();
    const exp = doc.paths["/api/v1/admin/export"].get;
    const imp = doc.paths["/api/v1/admin/import"].post;
    const clear = doc.paths["/api/v1/admin/clear-lab"].post;
    for (const op of [exp, imp, clear]) {
      expect(op.tags).toEqual(["admin"]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["401", "403"]));
    }
    expect(Object.keys(exp.responses["200"].content["application/json"].schema.properties ?? {})).toEqual(
      expect.arrayContaining(["version", "hardware", "entity_tags", "sites"]),
    );
    expect(Object.keys(imp.responses)).toEqual(expect.arrayContaining(["201", "413", "422", "428"]));
    expect(imp.requestBody.content["application/json"]).toBeDefined();
    expect(imp.parameters.map((p: { name: string }) => p.name)).toEqual(["dry_run"]);
    expect(Object.keys(clear.responses)).toEqual(expect.arrayContaining(["200", "428"]));
    expect(clear.description).toContain("x-svc-confirmation: CLEAR_LAB");
  });
});

describe("body limit", () => {
  it("the import takes a body over MAX_BODY_BYTES (its own MAX_IMPORT_BYTES applies), other routes do not", async () => {
    const rows = Array.from({ length: 6000 }, (_, i) => ({ id: 10_000 + i, name: `bulk-${i}`, description: "x".repeat(200) }));
    const body = { data: { misc_items: rows } };
    expect(JSON.stringify(body).length).toBeGreaterThan(1_048_576);
    const res = await b.req("POST", "/api/v1/admin/import?dry_run=true", b.admin, body);
    expect(res.status).toBe(200);
    expect((await res.json()).kinds.misc_items.created).toBe(6000);
    const other = await b.req("POST", "/api/v1/misc", b.admin, { name: "big", description: "x".repeat(1_100_000) });
    expect(other.status).toBe(413);
  });

  it("MAX_IMPORT_BYTES bounds the import: over it, 413 in the envelope", async () => {
    const small = await createActors({ MAX_IMPORT_BYTES: "4096" });
    try {
      const res = await small.req("POST", "/api/v1/admin/import", small.admin, {
        data: { misc_items: [{ id: 1, name: "x".repeat(5000) }] },
      });
      expect(res.status).toBe(413);
      expect((await res.json()).error_code).toBe("PAYLOAD_TOO_LARGE");
      expect(await small.t.sql`select 1 from misc_items`).toHaveLength(0);
    } finally {
      await small.t.close();
    }
  });
});
