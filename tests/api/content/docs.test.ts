import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { auditActions, GIF, PNG, sized, SVG, upload } from "./support.ts";

let a: Actors;
let hwId: number;
beforeAll(async () => {
  a = await createActors();
  hwId = (await a.t.sql`insert into hardware (name) values ('pve-01') returning id`)[0]!.id as number;
});
afterAll(async () => a.t.close());

const create = async (body: Record<string, unknown>) => {
  const res = await a.req("POST", "docs", a.editor, body);
  expect(res.status).toBe(201);
  return res.json();
};

describe("docs: happy", () => {
  it("creates, reads, lists, patches and deletes, with body_html on every read", async () => {
    const doc = await create({
      title: "Runbook",
      body_md: "# Restart\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] drained\n- [ ] rebooted",
      category: "ops",
      pinned: true,
    });
    expect(doc).toMatchObject({ title: "Runbook", category: "ops", pinned: true, version: 1 });
    expect(doc.body_html).toContain("<h1>Restart</h1>");
    expect(doc.body_html).toContain("<table>");
    expect(doc.body_html).toContain('<input type="checkbox" disabled="" checked="" />');

    const got = await (await a.req("GET", `docs/${doc.id}`, a.viewer)).json();
    expect(got.body_html).toBe(doc.body_html);

    const patched = await (await a.req("PATCH", `docs/${doc.id}`, a.editor, { body_md: "*new*", body_html: "ignored", id: 5 })).json();
    expect(patched).toMatchObject({ title: "Runbook", body_md: "*new*", body_html: "<p><em>new</em></p>", version: 2 });

    const page = await (await a.req("GET", "docs?q=runbook&pinned=true&category=ops", a.viewer)).json();
    expect(page).toMatchObject({ total: 1, sort: "title" });
    expect(page.items[0].body_html).toBe("<p><em>new</em></p>");

    expect((await a.req("DELETE", `docs/${doc.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `docs/${doc.id}`, a.viewer)).status).toBe(404);
    expect(await auditActions(a, "doc")).toEqual(["doc.create", "doc.update", "doc.delete"]);
  });

  it("attaches to an inventory object, lists both ways, and detaches", async () => {
    const doc = await create({ title: "PVE notes" });
    const att = await a.req("POST", "docs/attach", a.editor, { doc_id: doc.id, entity_type: "hardware", entity_id: hwId });
    expect(att.status).toBe(201);
    expect(await att.json()).toEqual({ doc_id: doc.id, entity_type: "hardware", entity_id: hwId, entity_name: "pve-01" });

    const by = await (await a.req("GET", `docs/by-entity?entity_type=hardware&entity_id=${hwId}`, a.viewer)).json();
    expect(by.map((d: { id: number }) => d.id)).toEqual([doc.id]);
    expect(by[0].body_html).toBe("");
    expect(await (await a.req("GET", `docs/${doc.id}/entities`, a.viewer)).json()).toEqual([
      { entity_type: "hardware", entity_id: hwId, name: "pve-01" },
    ]);

    expect((await a.req("DELETE", "docs/attach", a.editor, { doc_id: doc.id, entity_type: "hardware", entity_id: hwId })).status).toBe(204);
    expect(await (await a.req("GET", `docs/${doc.id}/entities`, a.viewer)).json()).toEqual([]);
    expect(await auditActions(a, "doc")).toEqual(expect.arrayContaining(["doc.attach", "doc.detach"]));
  });

  it("exports every doc with attachments and imports it back: updates by title, creates the rest", async () => {
    const doc = await create({ title: "Export me", body_md: "one", category: "x" });
    await a.req("POST", "docs/attach", a.editor, { doc_id: doc.id, entity_type: "hardware", entity_id: hwId });
    const exported = await (await a.req("GET", "docs/export", a.viewer)).json();
    expect(exported.format).toBe("docs-export/v1");
    const item = exported.docs.find((d: { title: string }) => d.title === "Export me");
    expect(item).toMatchObject({ body_md: "one", category: "x", attachments: [{ entity_type: "hardware", entity_id: hwId }] });

    item.body_md = "two";
    item.attachments.push({ entity_type: "service", entity_id: 999 });
    const fresh = { title: "Brand new", body_md: "hello", attachments: [{ entity_type: "hardware", entity_id: hwId }] };
    const res = await a.req("POST", "docs/import", a.editor, { ...exported, docs: [item, fresh] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ created: 1, updated: 1, attachments_skipped: 1 });
    const updated = await (await a.req("GET", `docs/${doc.id}`, a.viewer)).json();
    expect(updated).toMatchObject({ body_md: "two", version: 2 });
    const titles = (await (await a.req("GET", `docs/by-entity?entity_type=hardware&entity_id=${hwId}`, a.viewer)).json()).map(
      (d: { title: string }) => d.title,
    );
    expect(titles).toEqual(["Brand new", "Export me"]);
  });

  it("uploads an image and serves it from /uploads with its type", async () => {
    const doc = await create({ title: "With picture" });
    const res = await upload(a, `docs/${doc.id}/upload-image`, a.editor, GIF, "file", "text/plain");
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.url).toMatch(new RegExp(`^/uploads/doc-image/doc${doc.id}-[0-9a-f]{32}\\.gif$`));
    expect(body.markdown).toBe(`![](${body.url})`);
    const served = await a.t.app.request(body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/gif");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(served.headers.get("content-disposition")).toBeNull();
    const etag = served.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(GIF);
    expect((await a.t.app.request(body.url, { headers: { "if-none-match": etag } })).status).toBe(304);
    // The image shows in the rendered Markdown.
    const withImage = await (await a.req("PATCH", `docs/${doc.id}`, a.editor, { body_md: body.markdown })).json();
    expect(withImage.body_html).toBe(`<p><img src="${body.url}" alt="" /></p>`);
  });
});

describe("docs: errors", () => {
  it("404 names the document; 422 names bad and unknown fields", async () => {
    expect(await (await a.req("GET", "docs/424242", a.viewer)).json()).toEqual({
      error_code: "RESOURCE_NOT_FOUND",
      detail: "Document 424242 was not found.",
    });
    const bad = await a.req("POST", "docs", a.editor, { title: "", category: "x".repeat(101), colour: 1 });
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()).fields).sort()).toEqual(["category", "colour", "title"]);
    expect((await a.req("POST", "docs", a.editor, { title: "t", pinned: "yes" })).status).toBe(422);
    expect((await a.req("GET", "docs/424242/entities", a.viewer)).status).toBe(404);
  });

  it("attach: missing object or document is 422, unknown type 422, twice 409, detach of nothing 404", async () => {
    const doc = await create({ title: "Attach errors" });
    const missing = await a.req("POST", "docs/attach", a.editor, { doc_id: doc.id, entity_type: "service", entity_id: 9999 });
    expect(missing.status).toBe(422);
    expect((await missing.json()).fields.entity_id).toBe("Service 9999 was not found.");
    expect((await a.req("POST", "docs/attach", a.editor, { doc_id: 9999, entity_type: "hardware", entity_id: hwId })).status).toBe(422);
    expect((await a.req("POST", "docs/attach", a.editor, { doc_id: doc.id, entity_type: "planet", entity_id: 1 })).status).toBe(422);
    expect((await a.req("POST", "docs/attach", a.editor, { doc_id: doc.id, entity_type: "hardware", entity_id: hwId })).status).toBe(201);
    expect((await a.req("POST", "docs/attach", a.editor, { doc_id: doc.id, entity_type: "hardware", entity_id: hwId })).status).toBe(409);
    expect((await a.req("DELETE", "docs/attach", a.editor, { doc_id: doc.id, entity_type: "network", entity_id: 1 })).status).toBe(404);
    expect((await a.req("GET", "docs/by-entity?entity_type=hardware", a.viewer)).status).toBe(422);
  });

  it("import: duplicate titles in the file are 422 and nothing is stored", async () => {
    const res = await a.req("POST", "docs/import", a.editor, { docs: [{ title: "Twice" }, { title: "Twice" }] });
    expect(res.status).toBe(422);
    expect((await res.json()).fields).toHaveProperty("docs.1.title");
    expect((await a.t.sql`select count(*)::int as n from docs where title = 'Twice'`)[0]!.n).toBe(0);
  });

  it("import is one transaction: a bad row later in the file stores nothing", async () => {
    await a.t.sql`insert into docs (title) values ('Ambiguous'), ('Ambiguous')`;
    const res = await a.req("POST", "docs/import", a.editor, { docs: [{ title: "Would be created" }, { title: "Ambiguous" }] });
    expect(res.status).toBe(409);
    expect((await a.t.sql`select count(*)::int as n from docs where title = 'Would be created'`)[0]!.n).toBe(0);
  });

  it("upload: not an image 422, over 2 MiB 413, unknown doc 404, wrong field 422", async () => {
    const doc = await create({ title: "Upload errors" });
    const svg = await upload(a, `docs/${doc.id}/upload-image`, a.editor, SVG, "file", "image/png");
    expect(svg.status).toBe(422);
    expect((await svg.json()).fields).toHaveProperty("file");
    const big = await upload(a, `docs/${doc.id}/upload-image`, a.editor, sized(PNG, 2 * 1024 * 1024 + 1));
    expect(big.status).toBe(413);
    expect((await big.json()).error_code).toBe("PAYLOAD_TOO_LARGE");
    expect((await upload(a, `docs/${doc.id}/upload-image`, a.editor, sized(PNG, 2 * 1024 * 1024))).status).toBe(201);
    expect((await upload(a, "docs/424242/upload-image", a.editor, PNG)).status).toBe(404);
    expect((await upload(a, `docs/${doc.id}/upload-image`, a.editor, PNG, "image")).status).toBe(422);
    expect((await a.t.sql`select count(*)::int as n from uploads where kind = 'doc-image' and name like ${`doc${doc.id}-%`}`)[0]!.n).toBe(
      1,
    );
  });
});

describe("docs: security", () => {
  it("a hostile document renders inert: raw HTML escaped, javascript: links emptied", async () => {
    const hostile = [
      "<script>alert(1)</script>",
      '<img src=x onerror="alert(2)">',
      "[click](javascript:alert(3)) [x](JaVaScRiPt:alert(4)) ![i](javascript:alert(5)) [d](data:text/html;base64,PHNjcmlwdD4=)",
      "[ref]\n\n[ref]: javascript:alert(6)",
      "<javascript:alert(7)>",
    ].join("\n\n");
    const doc = await create({ title: "Hostile", body_md: hostile });
    const html: string = doc.body_html;
    expect(html).not.toMatch(/<script|<[^>]*onerror|href="(javascript|data)|src="javascript/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain('<a href="">click</a>');
  });

  it("anonymous 401, viewer cannot write, editor cannot delete, 403 before validation", async () => {
    expect((await a.req("GET", "docs")).status).toBe(401);
    expect((await a.req("POST", "docs", a.viewer, { title: "nope" })).status).toBe(403);
    expect((await a.req("POST", "docs", a.viewer, { title: "" })).status).toBe(403);
    expect((await a.req("POST", "docs/import", a.viewer, { docs: [] })).status).toBe(403);
    const doc = await create({ title: "Keep" });
    expect((await a.req("DELETE", `docs/${doc.id}`, a.editor)).status).toBe(403);
    expect((await upload(a, `docs/${doc.id}/upload-image`, a.viewer, PNG)).status).toBe(403);
    expect((await upload(a, `docs/${doc.id}/upload-image`, undefined, PNG)).status).toBe(401);
  });

  it("the static mount serves anything not a raster image as a sandboxed download, and only stored names", async () => {
    await a.t
      .sql`insert into uploads (kind, name, content_type, size, sha256, bytes) values ('doc-image', 'evil.svg', 'image/svg+xml', ${SVG.length}, 'x', ${SVG})`;
    const svg = await a.t.app.request("/uploads/doc-image/evil.svg");
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-disposition")).toBe("attachment");
    expect(svg.headers.get("content-security-policy")).toBe("sandbox");
    expect(svg.headers.get("x-content-type-options")).toBe("nosniff");
    for (const path of ["/uploads/doc-image/..%2F..%2Fetc%2Fpasswd", "/uploads/doc-image/nothing.png", "/uploads/..%2Fx/y.png"]) {
      const res = await a.t.app.request(path);
      expect(res.status, path).toBe(404);
      expect((await res.json()).error_code).toBe("RESOURCE_NOT_FOUND");
    }
  });
});
