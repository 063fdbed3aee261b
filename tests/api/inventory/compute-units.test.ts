import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(56).fill(0)]);
let peer = 0;

/** POST /compute-units/icons/upload as multipart/form-data. */
function upload(token: string | undefined, file: { bytes: Uint8Array; name: string; type?: string }, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.append("file", new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? "image/png" }), file.name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const headers: Record<string, string> = { "x-test-peer": `10.8.${Math.floor(++peer / 250)}.${peer % 250}` };
  if (token) headers.authorization = `Bearer ${token}`;
  return Promise.resolve(a.t.app.request("/api/v1/compute-units/icons/upload", { method: "POST", body: form, headers }));
}

async function hardwareNode(name: string): Promise<number> {
  return (await (await a.req("POST", "hardware", a.editor, { name })).json()).id;
}

describe("compute-units: happy", () => {
  it("creates, reads, lists with filters, patches and deletes", async () => {
    const hw = await hardwareNode("pve-cu");
    const [env] = await a.t.sql`insert into environments (name) values ('prod') returning id`;
    const created = await a.req("POST", "compute-units", a.editor, {
      name: "web-vm",
      kind: "vm",
      hardware_id: hw,
      memory_mb: 4096,
      cpu_cores: 2,
      disk_gb: 40,
      ip_address: "10.0.0.5",
      status: "running",
      os: "Debian 12",
      icon_slug: "debian",
      environment_id: env!.id,
      tags: ["web"],
    });
    expect(created.status).toBe(201);
    const cu = await created.json();
    expect(cu).toMatchObject({
      name: "web-vm",
      kind: "vm",
      hardware_name: "pve-cu",
      environment_name: "prod",
      icon_slug: "debian",
      tags: ["web"],
      version: 1,
    });
    await a.req("POST", "compute-units", a.editor, { name: "db-ct", kind: "container", hardware_id: hw, tags: ["db"] });
    await a.req("POST", "compute-units", a.editor, { name: "lonely", kind: "vm" });

    expect((await (await a.req("GET", `compute-units/${cu.id}`, a.viewer)).json()).os).toBe("Debian 12");
    const names = async (q: string) =>
      (await (await a.req("GET", `compute-units?${q}`, a.viewer)).json()).items.map((x: { name: string }) => x.name);
    expect(await names("kind=container")).toEqual(["db-ct"]);
    expect(await names(`hardware_id=${hw}&sort=name&direction=desc`)).toEqual(["web-vm", "db-ct"]);
    expect(await names("status=running")).toEqual(["web-vm"]);
    expect(await names(`environment_id=${env!.id}`)).toEqual(["web-vm"]);
    expect(await names("environment=prod")).toEqual(["web-vm"]);
    expect(await names("tag=db")).toEqual(["db-ct"]);
    expect(await names("q=DEBIAN")).toEqual(["web-vm"]);

    const patched = await a.req("PATCH", `compute-units/${cu.id}`, a.editor, { memory_mb: 8192, hardware_name: "ignored", id: 1 });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ memory_mb: 8192, cpu_cores: 2, version: 2 });

    expect((await a.req("DELETE", `compute-units/${cu.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `compute-units/${cu.id}`, a.viewer)).status).toBe(404);
    const audit = await a.t
      .sql`select action, diff from audit_log where entity_type = 'compute_unit' and entity_id = ${String(cu.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual(["compute_unit.create", "compute_unit.update", "compute_unit.delete"]);
    expect(audit[1]!.diff).toMatchObject({ before: { memory_mb: 4096 }, after: { memory_mb: 8192 } });
  });

  it("lists its network memberships, which go with it on delete", async () => {
    const cu = await (await a.req("POST", "compute-units", a.editor, { name: "net-vm", kind: "vm" })).json();
    const [net] = await a.t.sql`insert into networks (name, cidr, vlan_id) values ('lan', '10.0.0.0/24', 10) returning id`;
    await a.t.sql`insert into network_members (network_id, compute_id, ip_address) values (${net!.id}, ${cu.id}, '10.0.0.9')`;
    const res = await a.req("GET", `compute-units/${cu.id}/networks`, a.viewer);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { network_id: net!.id, name: "lan", cidr: "10.0.0.0/24", vlan_id: 10, gateway: null, ip_address: "10.0.0.9" },
    ]);

    expect((await a.req("DELETE", `compute-units/${cu.id}`, a.admin)).status).toBe(204);
    expect((await a.t.sql`select count(*)::int as n from network_members where compute_id = ${cu.id}`)[0]!.n).toBe(0);
    const [unlink] = await a.t.sql`select diff from audit_log where action = 'compute_unit.unlink' and entity_id = ${String(cu.id)}`;
    expect(unlink!.diff.before.network_members[0]).toMatchObject({ network_id: net!.id, ip_address: "10.0.0.9" });
  });

  it("lists built-in icons, uploads one, uses it and deletes it (the unit loses it)", async () => {
    const before = await (await a.req("GET", "compute-units/icons", a.viewer)).json();
    expect(before.find((i: { slug: string }) => i.slug === "docker")).toMatchObject({ builtin: true, group: "Platform" });

    const up = await upload(a.editor, { bytes: PNG, name: "My Router.png" });
    expect(up.status).toBe(201);
    expect(await up.json()).toMatchObject({
      slug: "my-router",
      builtin: false,
      content_type: "image/png",
      size: PNG.length,
      path: "/uploads/compute-icon/my-router",
    });
    const named = await upload(a.editor, { bytes: PNG, name: "x.png" }, { slug: "nas-box" });
    expect((await named.json()).slug).toBe("nas-box");

    const icons = await (await a.req("GET", "compute-units/icons", a.viewer)).json();
    expect(icons.filter((i: { builtin: boolean }) => !i.builtin).map((i: { slug: string }) => i.slug)).toEqual(["my-router", "nas-box"]);
    const [stored] = await a.t
      .sql`select content_type, size::int as size, sha256 from uploads where kind = 'compute-icon' and name = 'my-router'`;
    expect(stored).toMatchObject({ content_type: "image/png", size: PNG.length });

    const cu = await (await a.req("POST", "compute-units", a.editor, { name: "router-vm", kind: "vm", icon_slug: "my-router" })).json();
    expect(cu.icon_slug).toBe("my-router");
    expect((await a.req("DELETE", "compute-units/icons/my-router", a.editor)).status).toBe(204);
    expect(await (await a.req("GET", `compute-units/${cu.id}`, a.viewer)).json()).toMatchObject({ icon_slug: null, version: 2 });
    expect((await a.t.sql`select count(*)::int as n from uploads where name = 'my-router'`)[0]!.n).toBe(0);
    const audit = await a.t
      .sql`select action, diff from audit_log where action like 'compute_icon.%' or action = 'upload.store' order by id`;
    expect(audit.map((r) => r.action)).toEqual(["upload.store", "upload.store", "compute_icon.delete"]);
    expect(audit[2]!.diff.before.used_by_compute_units).toEqual([cu.id]);
  });
});

describe("compute-units: errors", () => {
  it("404 names the resource and id", async () => {
    const res = await a.req("GET", "compute-units/424242", a.viewer);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error_code: "RESOURCE_NOT_FOUND", detail: "Compute unit 424242 was not found." });
    expect((await a.req("GET", "compute-units/424242/networks", a.viewer)).status).toBe(404);
  });

  it("422 names bad, missing and unknown fields, and nothing is stored", async () => {
    const res = await a.req("POST", "compute-units", a.editor, { name: "bad", kind: "vm", memory_mb: 1.5, flavour: "x" });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).fields).sort()).toEqual(["flavour", "memory_mb"]);
    const kind = await a.req("POST", "compute-units", a.editor, { name: "bad", kind: "lxc" });
    expect((await kind.json()).fields.kind).toBe("Must be one of: vm, container.");
    const missing = await a.req("POST", "compute-units", a.editor, { name: "no-kind" });
    expect(Object.keys((await missing.json()).fields)).toEqual(["kind"]);
    expect((await a.t.sql`select count(*)::int as n from compute_units where name in ('bad', 'no-kind')`)[0]!.n).toBe(0);
    expect((await a.req("GET", "compute-units?kind=lxc", a.viewer)).status).toBe(422);
  });

  it("unknown hardware, environment or icon is a 422 naming the field", async () => {
    for (const [field, value] of [
      ["hardware_id", 9999],
      ["environment_id", 9999],
      ["icon_slug", "no-such-icon"],
    ] as const) {
      const res = await a.req("POST", "compute-units", a.editor, { name: "orphan", kind: "vm", [field]: value });
      expect(res.status, field).toBe(422);
      expect(Object.keys((await res.json()).fields), field).toEqual([field]);
    }
  });

  it("deleting a unit that services run on is 409 listing them", async () => {
    const cu = await (await a.req("POST", "compute-units", a.editor, { name: "busy-vm", kind: "vm" })).json();
    await a.t.sql`insert into services (name, slug, compute_id) values ('nginx', 'nginx-busy', ${cu.id})`;
    const res = await a.req("DELETE", `compute-units/${cu.id}`, a.admin);
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.detail).toContain("nginx");
    expect(body.dependents[0]).toMatchObject({ type: "service", name: "nginx" });
    expect((await a.req("GET", `compute-units/${cu.id}`, a.viewer)).status).toBe(200);
  });

  it("If-Match with a stale version is 412", async () => {
    const cu = await (await a.req("POST", "compute-units", a.editor, { name: "etag-vm", kind: "vm" })).json();
    expect((await a.req("PATCH", `compute-units/${cu.id}`, a.editor, { os: "a" }, { "if-match": 'W/"1"' })).status).toBe(200);
    expect((await a.req("PATCH", `compute-units/${cu.id}`, a.editor, { os: "b" }, { "if-match": 'W/"1"' })).status).toBe(412);
  });

  it("icon uploads: SVG and non-images 422, over 256 KiB 413, taken or built-in slugs 409, bad slug 422", async () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const svgRes = await upload(a.editor, { bytes: svg, name: "evil.png", type: "image/png" });
    expect(svgRes.status).toBe(422);
    expect((await svgRes.json()).fields).toHaveProperty("file");
    const big = new Uint8Array(256 * 1024 + 1);
    big.set(PNG);
    const bigRes = await upload(a.editor, { bytes: big, name: "big.png" });
    expect(bigRes.status).toBe(413);
    expect((await bigRes.json()).error_code).toBe("PAYLOAD_TOO_LARGE");
    expect((await upload(a.editor, { bytes: PNG, name: "docker.png" })).status).toBe(409);
    expect((await upload(a.editor, { bytes: PNG, name: "dup.png" })).status).toBe(201);
    expect((await upload(a.editor, { bytes: PNG, name: "x.png" }, { slug: "dup" })).status).toBe(409);
    const badSlug = await upload(a.editor, { bytes: PNG, name: "x.png" }, { slug: "Bad Slug!" });
    expect(badSlug.status).toBe(422);
    expect((await badSlug.json()).fields).toHaveProperty("slug");
    const notForm = await a.req("POST", "compute-units/icons/upload", a.editor, { file: "x" });
    expect(notForm.status).toBe(422);
    expect(
      (await a.t.sql`select count(*)::int as n from uploads where kind = 'compute-icon' and name in ('evil', 'big', 'docker')`)[0]!.n,
    ).toBe(0);
  });

  it("icon deletes: built-in 409, unknown 404", async () => {
    expect((await a.req("DELETE", "compute-units/icons/docker", a.editor)).status).toBe(409);
    const res = await a.req("DELETE", "compute-units/icons/never-uploaded", a.editor);
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toBe("Compute icon never-uploaded was not found.");
  });
});

describe("compute-units: security", () => {
  it("anonymous 401, viewer cannot write or upload, editor cannot delete a unit", async () => {
    expect((await a.req("GET", "compute-units")).status).toBe(401);
    expect((await a.req("GET", "compute-units/icons")).status).toBe(401);
    expect((await a.req("POST", "compute-units", a.viewer, { name: "nope", kind: "vm" })).status).toBe(403);
    expect((await upload(a.viewer, { bytes: PNG, name: "viewer.png" })).status).toBe(403);
    expect((await upload(undefined, { bytes: PNG, name: "anon.png" })).status).toBe(401);
    expect((await a.req("DELETE", "compute-units/icons/nas-box", a.viewer)).status).toBe(403);
    const cu = await (await a.req("POST", "compute-units", a.editor, { name: "keep-vm", kind: "vm" })).json();
    expect((await a.req("DELETE", `compute-units/${cu.id}`, a.editor)).status).toBe(403);
    expect((await a.req("PATCH", `compute-units/${cu.id}`, a.viewer, { os: "x" })).status).toBe(403);
    expect((await a.t.sql`select count(*)::int as n from uploads where name in ('viewer', 'anon')`)[0]!.n).toBe(0);
  });
});
