// Bad input is a clear 4xx that names the field and changes nothing (issue: no 5xx under bad input):
// NUL characters and lone surrogates in any text, integers past PostgreSQL's range in path ids, query
// filters and body references, multipart text fields, and what still slips past validation (PostgreSQL's
// data exceptions, SQLSTATE class 22) as a 422 rather than a 500. The fuzz suite (tests/security)
// sends such values to every route; these pin the answers' shapes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => {
  await a?.t.close();
});

async function refused(res: Response, status: number): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return res.json();
}

describe("text no column can store", () => {
  it("a NUL in a body field is a 422 naming the field, and nothing is stored", async () => {
    const body = await refused(await a.req("POST", "hardware", a.admin, { name: "a\u0000b" }), 422);
    expect(body).toMatchObject({ error_code: "VALIDATION_ERROR", fields: { name: "Must not contain a NUL character (\\u0000)." } });
    expect((await a.t.sql`select count(*)::int as n from hardware`)[0]!.n).toBe(0);
  });

  it("a lone surrogate is a 422 naming the field (it would reach the audit diff's JSON)", async () => {
    const me = await (await a.req("GET", "auth/me", a.admin)).json();
    const body = await refused(await a.req("PATCH", `users/${me.id}`, a.admin, { display_name: "a\ud800b" }), 422);
    expect(body.fields).toEqual({ display_name: "Must be valid Unicode: it contains an unpaired UTF-16 surrogate." });
  });

  it("in the search text, a query filter and a nested field", async () => {
    expect((await refused(await a.req("GET", "hardware?q=%00", a.admin), 422)).fields).toHaveProperty("q");
    expect((await refused(await a.req("GET", "search?q=a%00b", a.admin), 422)).fields).toHaveProperty("q");
    const nested = await refused(await a.req("POST", "services", a.admin, { name: "svc", ports: [{ port: 80, label: "x\u0000" }] }), 422);
    expect(nested.fields).toHaveProperty(["ports.0.label"]);
  });

  it("in a field name", async () => {
    const body = await refused(await a.req("POST", "hardware", a.admin, { name: "ok", "bad\u0000key": 1 }), 422);
    expect(JSON.stringify(body.detail)).toContain("A field name");
  });

  it("in a multipart text field", async () => {
    const form = new FormData();
    form.append(
      "file",
      new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(56).fill(0)])], { type: "image/png" }),
      "icon.png",
    );
    form.append("name", "bad\u0000name");
    const res = await a.t.app.request("/api/v1/compute-units/icons/upload", {
      method: "POST",
      body: form,
      headers: { authorization: `Bearer ${a.admin}`, "x-test-peer": "10.99.0.1" },
    });
    expect((await refused(res, 422)).fields).toHaveProperty("name");
    expect((await a.t.sql`select count(*)::int as n from uploads`)[0]!.n).toBe(0);
  });
});

describe("integers past PostgreSQL's range", () => {
  it("a path id past the range is the same 404 as any missing row", async () => {
    for (const path of ["hardware/2147483648", "networks/2147483648/members", "services/99999999999999999999/dependencies"]) {
      const body = await refused(await a.req("GET", path, a.admin), 404);
      expect(body.error_code, path).toBe("RESOURCE_NOT_FOUND");
      expect(body.detail, path).toMatch(/(2147483648|99999999999999999999) was not found\.$/);
    }
    expect((await refused(await a.req("DELETE", "hardware/2147483648", a.admin), 404)).error_code).toBe("RESOURCE_NOT_FOUND");
  });

  it("a malformed path id stays a 422", async () => {
    expect((await refused(await a.req("GET", "hardware/abc", a.admin), 422)).error_code).toBe("VALIDATION_ERROR");
  });

  it("a query filter or a body reference past the range is a 422 naming it", async () => {
    expect((await refused(await a.req("GET", "hardware?site_id=2147483648", a.admin), 422)).fields).toHaveProperty("site_id");
    const body = await refused(await a.req("POST", "services", a.admin, { name: "x", hardware_id: 2147483648 }), 422);
    expect(body.fields).toEqual({ hardware_id: "Must be at most 2147483647." });
    expect((await a.t.sql`select count(*)::int as n from services`)[0]!.n).toBe(0);
  });
});

describe("the last line of defence", () => {
  it("a PostgreSQL data exception is a 422, not a 500, and the transaction is rolled back", async () => {
    // A column narrower than its schema allows stands for any check validation does not make.
    await a.t.sql`alter table hardware alter column notes type varchar(5)`;
    try {
      const body = await refused(await a.req("POST", "hardware", a.admin, { name: "narrow", notes: "longer than five" }), 422);
      expect(body).toMatchObject({
        error_code: "VALIDATION_ERROR",
        detail: [{ msg: "A text is longer than its field can hold.", type: "data_exception" }],
      });
      expect((await a.t.sql`select count(*)::int as n from hardware where name = 'narrow'`)[0]!.n).toBe(0);
    } finally {
      await a.t.sql`alter table hardware alter column notes type text`;
    }
  });
});
