// /status-pages* (docs/adr/0454-status-pages.md): the list envelope, 201, ETag/If-Match on PATCH and
// DELETE, sections replaced as a whole, 409 for a slug or domain taken, 422s naming the field, scopes, audit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
let monitorId: number;
let serviceId: number;
beforeAll(async () => {
  a = await createActors();
  const m = await a.req("POST", "monitors", a.admin, { name: "db-primary", check_type: "http", host: "db1.internal.lan" });
  expect(m.status).toBe(201);
  monitorId = (await m.json()).id;
  const s = await a.req("POST", "services", a.admin, { name: "shop-backend" });
  expect(s.status).toBe(201);
  serviceId = (await s.json()).id;
});
afterAll(async () => a?.t.close());

const P = "status-pages";
const locs = async (res: Response) => ((await res.json()).detail as { loc: (string | number)[] }[]).map((d) => d.loc.join("."));

describe("status pages", () => {
  it("creates, lists, reads, changes under If-Match (sections replaced whole) and deletes a page", async () => {
    const res = await a.req("POST", P, a.admin, {
      slug: "Public",
      title: "Our services",
      sections: [
        {
          name: "Core",
          items: [
            { kind: "monitor", monitor_id: monitorId, public_name: "Database" },
            { kind: "service", service_id: serviceId, public_name: "Shop" },
          ],
        },
        { name: "Storage", show_messages: true, items: [{ kind: "tag", tag: "nas" }] },
      ],
    });
    expect(res.status).toBe(201);
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"\d+"$/);
    const page = await res.json();
    expect(page).toMatchObject({
      slug: "public",
      published: false,
      custom_domain: null,
      primary_color: null,
      sections: [
        {
          name: "Core",
          show_messages: false,
          items: [
            { kind: "monitor", monitor_id: monitorId, public_name: "Database" },
            { kind: "service", service_id: serviceId, public_name: "Shop" },
          ],
        },
        { name: "Storage", show_messages: true, items: [{ kind: "tag", tag: "nas", public_name: null }] },
      ],
    });
    const list = await (await a.req("GET", P, a.viewer)).json();
    expect(list).toMatchObject({ total: 1, limit: 25, offset: 0 });
    expect(list.items[0].id).toBe(page.id);
    const one = await a.req("GET", `${P}/${page.id}`, a.admin);
    expect(one.headers.get("etag")).toBe(etag);

    const changed = await a.req(
      "PATCH",
      `${P}/${page.id}`,
      a.admin,
      { published: true, sections: [{ name: "Only", items: [{ kind: "service", service_id: serviceId, public_name: "Shop" }] }] },
      { "if-match": etag },
    );
    expect(changed.status).toBe(200);
    const after = await changed.json();
    expect(after.published).toBe(true);
    expect(after.sections).toEqual([
      {
        name: "Only",
        show_messages: false,
        items: [{ kind: "service", monitor_id: null, service_id: serviceId, tag: null, public_name: "Shop", key: "shop" }],
      },
    ]);
    // A PATCH without sections keeps them, and leaves every field it does not name as it was (no defaults).
    const titled = await a.req("PATCH", `${P}/${page.id}`, a.admin, { title: "Status" });
    expect(await titled.clone().json()).toMatchObject({ title: "Status", published: true });
    expect((await titled.json()).sections).toHaveLength(1);
    expect((await a.req("PATCH", `${P}/${page.id}`, a.admin, { title: "x" }, { "if-match": etag })).status).toBe(412);
    expect((await a.req("DELETE", `${P}/${page.id}`, a.admin, undefined, { "if-match": etag })).status).toBe(412);

    const audit = await a.t.sql<
      { action: string }[]
    >`select action from audit_log where entity_type = 'status_page' and entity_id = ${String(page.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual(["status_page.create", "status_page.update", "status_page.update"]);

    const del = await a.req("DELETE", `${P}/${page.id}`, a.admin, undefined, { "if-match": titled.headers.get("etag")! });
    expect(del.status).toBe(204);
    expect((await a.req("GET", `${P}/${page.id}`, a.admin)).status).toBe(404);
  });

  it("answers 409 for a slug or a custom domain already taken, naming the field", async () => {
    expect((await a.req("POST", P, a.admin, { slug: "taken", title: "A", custom_domain: "Status.Example.com" })).status).toBe(201);
    const slug = await a.req("POST", P, a.admin, { slug: "taken", title: "B" });
    expect(slug.status).toBe(409);
    expect((await slug.json()).field).toBe("slug");
    const domain = await a.req("POST", P, a.admin, { slug: "other", title: "B", custom_domain: "status.example.com" });
    expect(domain.status).toBe(409);
    expect((await domain.json()).field).toBe("custom_domain");
    const b = await (await a.req("POST", P, a.admin, { slug: "other", title: "B" })).json();
    expect((await a.req("PATCH", `${P}/${b.id}`, a.admin, { slug: "taken" })).status).toBe(409);
    // Its own slug is not "taken".
    expect((await a.req("PATCH", `${P}/${b.id}`, a.admin, { slug: "other" })).status).toBe(200);
  });

  it("refuses bad input with a 422 naming the field", async () => {
    const noName = await a.req("POST", P, a.admin, {
      slug: "bad",
      title: "x",
      sections: [{ name: "s", items: [{ kind: "monitor", monitor_id: monitorId }] }],
    });
    expect(noName.status).toBe(422);
    expect(await locs(noName)).toContain("body.sections.0.items.0.public_name");
    const unknown = await a.req("POST", P, a.admin, {
      slug: "bad",
      title: "x",
      sections: [{ name: "s", items: [{ kind: "service", service_id: 999_999, public_name: "S" }] }],
    });
    expect(unknown.status).toBe(422);
    expect(await locs(unknown)).toEqual(["body.sections.0.items.0.service_id"]);
    for (const [field, value] of [
      ["slug", "has space"],
      ["logo_url", "javascript:alert(1)"],
      ["custom_domain", "https://status.example.com/"],
      ["primary_color", "red"],
    ] as const) {
      const res = await a.req("POST", P, a.admin, { slug: "bad", title: "x", [field]: value });
      expect(res.status, field).toBe(422);
      expect(await locs(res), field).toContain(`body.${field}`);
    }
    const kind = await a.req("POST", P, a.admin, { slug: "bad", title: "x", sections: [{ name: "s", items: [{ kind: "host" }] }] });
    expect(kind.status).toBe(422);
  });

  it("lets every role read and only write:status_pages change", async () => {
    const res = await a.req("POST", P, a.editor, { slug: "ed", title: "x" });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toContain("write:status_pages");
    expect((await a.req("GET", P, a.viewer)).status).toBe(200);
    expect((await a.req("GET", P)).status).toBe(401);
  });

  it("drops an item whose monitor is deleted", async () => {
    const m = await (await a.req("POST", "monitors", a.admin, { name: "tmp", check_type: "http", host: "tmp.lan" })).json();
    const page = await (
      await a.req("POST", P, a.admin, {
        slug: "drop",
        title: "x",
        sections: [{ name: "s", items: [{ kind: "monitor", monitor_id: m.id, public_name: "T" }] }],
      })
    ).json();
    expect((await a.req("DELETE", `monitors/${m.id}`, a.admin)).status).toBe(204);
    expect((await (await a.req("GET", `${P}/${page.id}`, a.admin)).json()).sections[0].items).toEqual([]);
  });
});
