// Who may read and write a journal, and every refusal of the journal routes with nothing changed
// (docs/journal.md, docs/adr/0485): the object kind's read scope to read, its write scope to write, the
// author or an administrator to change or delete; 404 for a missing object or entry, 422 naming the
// field, 412 for a stale If-Match.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../../shared/auth/password.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
let hw = 0;
let site = 0;
/** A second editor, who is not the author of the editor's entries. */
let otherEditor = "";
beforeAll(async () => {
  a = await createActors();
  hw = (await a.t.sql`insert into hardware (name) values ('jr-refusals') returning id`)[0]!.id as number;
  site = (await a.t.sql`insert into sites (name) values ('jr-site') returning id`)[0]!.id as number;
  const hash = await hashPassword("other editor password", { iterations: 1000 });
  await a.t.sql`insert into users (email, password_hash, role) values ('editor2@example.com', ${hash}, 'editor')`;
  const res = await a.req("POST", "/api/v1/auth/jwt/login", undefined, { email: "editor2@example.com", password: "other editor password" });
  otherEditor = (await res.json()).access_token as string;
});
afterAll(async () => a.t.close());

/** The journal's rows and audit entries, to show a refusal changed nothing. */
const state = async () => {
  const [j] = await a.t
    .sql`select count(*)::int as n, coalesce(sum(version), 0)::int as v, string_agg(comments || kind, '|' order by id) as c from journal_entries`;
  const [l] = await a.t.sql`select count(*)::int as n from audit_log where entity_type = 'journal_entry'`;
  return { ...j, audit: l!.n };
};
const write = async (token = a.editor, comments = "a note") => {
  const res = await a.req("POST", "journal", token, { object_type: "hardware", object_id: hw, comments });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number };
};
const mint = async (scopes: string[], token = a.editor) => {
  const res = await a.req("POST", "auth/api-token", token, { label: `jr ${scopes.join(" ")}`, scopes });
  expect(res.status).toBe(201);
  return (await res.json()).token as string;
};

describe("journal: scopes", () => {
  it("anonymous is 401 everywhere; a viewer reads but does not write", async () => {
    const entry = await write();
    const before = await state();
    expect((await a.req("GET", "journal")).status).toBe(401);
    expect((await a.req("GET", `journal/${entry.id}`)).status).toBe(401);
    expect((await a.req("POST", "journal", undefined, { object_type: "hardware", object_id: hw, comments: "x" })).status).toBe(401);
    expect((await a.req("GET", `journal?object_type=hardware&object_id=${hw}`, a.viewer)).status).toBe(200);
    expect((await a.req("GET", `journal/${entry.id}`, a.viewer)).status).toBe(200);
    const denied = await a.req("POST", "journal", a.viewer, { object_type: "hardware", object_id: hw, comments: "x" });
    expect(denied.status).toBe(403);
    expect((await denied.json()).detail).toContain("write:hardware");
    expect((await a.req("PATCH", `journal/${entry.id}`, a.viewer, { comments: "y" })).status).toBe(403);
    expect((await a.req("DELETE", `journal/${entry.id}`, a.viewer)).status).toBe(403);
    expect(await state()).toEqual(before);
  });

  it("writing needs the object kind's write scope: an editor may not write on a site", async () => {
    const before = await state();
    const res = await a.req("POST", "journal", a.editor, { object_type: "site", object_id: site, comments: "x" });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toContain("write:sites");
    expect(await state()).toEqual(before);
    expect((await a.req("POST", "journal", a.admin, { object_type: "site", object_id: site, comments: "x" })).status).toBe(201);
  });

  it("only the author or an administrator changes or deletes an entry", async () => {
    const entry = await write();
    const before = await state();
    const patch = await a.req("PATCH", `journal/${entry.id}`, otherEditor, { comments: "not mine" });
    expect(patch.status).toBe(403);
    expect((await patch.json()).detail).toContain("author or an administrator");
    expect((await a.req("DELETE", `journal/${entry.id}`, otherEditor)).status).toBe(403);
    expect(await state()).toEqual(before);
    // The other editor may still write entries of their own on the object.
    await write(otherEditor, "mine");
    expect((await a.req("PATCH", `journal/${entry.id}`, a.admin, { kind: "danger" })).status).toBe(200);
    expect((await a.req("DELETE", `journal/${entry.id}`, a.admin)).status).toBe(204);
  });

  it("an API token writes as its user, within the token's scopes", async () => {
    const readOnly = await mint(["read:hardware"]);
    expect((await a.req("GET", `journal?object_type=hardware&object_id=${hw}`, readOnly)).status).toBe(200);
    const before = await state();
    expect((await a.req("POST", "journal", readOnly, { object_type: "hardware", object_id: hw, comments: "x" })).status).toBe(403);
    expect(await state()).toEqual(before);

    const writer = await mint(["read:hardware", "write:hardware"]);
    const res = await a.req("POST", "journal", writer, { object_type: "hardware", object_id: hw, comments: "by token" });
    expect(res.status).toBe(201);
    const [editor] = await a.t.sql`select id from users where email = 'editor@example.com'`;
    expect((await res.json()).created_by).toBe(editor!.id);
  });

  it("a token scoped to one kind sees only that kind's notes", async () => {
    const svc = (await a.t.sql`insert into services (name, slug) values ('jr-svc', 'jr-svc') returning id`)[0]!.id as number;
    const svcNote = await a.req("POST", "journal", a.editor, { object_type: "service", object_id: svc, comments: "service note" });
    const svcId = (await svcNote.json()).id as number;
    const hwNote = await write();
    const servicesOnly = await mint(["read:services"]);
    const all = await (await a.req("GET", "journal?limit=100", servicesOnly)).json();
    expect(all.items.every((e: { object_type: string }) => e.object_type === "service")).toBe(true);
    expect(all.items.map((e: { id: number }) => e.id)).toContain(svcId);
    expect((await a.req("GET", `journal?object_type=hardware&object_id=${hw}`, servicesOnly)).status).toBe(403);
    const one = await a.req("GET", `journal/${hwNote.id}`, servicesOnly);
    expect(one.status).toBe(403);
    expect(JSON.stringify(await one.json())).not.toContain("a note");
  });
});

describe("journal: refusals change nothing", () => {
  it("an object that is not there is a 404", async () => {
    const before = await state();
    const res = await a.req("POST", "journal", a.editor, { object_type: "hardware", object_id: 987654, comments: "x" });
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toBe("Hardware node 987654 was not found.");
    expect((await a.req("GET", "journal?object_type=storage&object_id=987654", a.viewer)).status).toBe(404);
    expect((await a.req("GET", "journal/987654", a.viewer)).status).toBe(404);
    expect((await a.req("PATCH", "journal/987654", a.editor, { comments: "x" })).status).toBe(404);
    expect((await a.req("DELETE", "journal/987654", a.admin)).status).toBe(404);
    expect(await state()).toEqual(before);
  });

  it("bad bodies and queries are 422 naming the field", async () => {
    const entry = await write();
    const before = await state();
    const cases: [string, string, unknown, string][] = [
      ["POST", "journal", { object_type: "hardware", object_id: hw, comments: "x", kind: "urgent" }, "kind"],
      ["POST", "journal", { object_type: "printer", object_id: hw, comments: "x" }, "object_type"],
      ["POST", "journal", { object_type: "hardware", object_id: 0, comments: "x" }, "object_id"],
      ["POST", "journal", { object_type: "hardware", object_id: hw, comments: "   " }, "comments"],
      ["POST", "journal", { object_type: "hardware", object_id: hw, comments: "x".repeat(20_001) }, "comments"],
      ["POST", "journal", { object_type: "hardware", object_id: hw }, "comments"],
      ["POST", "journal", { object_type: "hardware", object_id: hw, comments: "x", author: "me" }, "author"],
      ["PATCH", `journal/${entry.id}`, { kind: "urgent" }, "kind"],
      ["PATCH", `journal/${entry.id}`, { comments: "" }, "comments"],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await a.req(method, path, a.editor, body);
      expect(res.status, `${method} ${JSON.stringify(body).slice(0, 80)}`).toBe(422);
      const err = await res.json();
      expect(err.error_code).toBe("VALIDATION_ERROR");
      expect(Object.keys(err.fields), JSON.stringify(err.fields)).toContain(field);
    }
    for (const [query, field] of [
      ["kind=urgent", "kind"],
      ["object_type=printer", "object_type"],
      ["created_after=yesterday", "created_after"],
      [`object_id=${hw}`, "object_type"],
    ]) {
      const res = await a.req("GET", `journal?${query}`, a.viewer);
      expect(res.status, query).toBe(422);
      expect(Object.keys((await res.json()).fields), query).toContain(field);
    }
    expect(await state()).toEqual(before);
    // The read shape's fields are accepted back and left alone: an entry never moves to another object.
    const sent = await a.req("PATCH", `journal/${entry.id}`, a.editor, { object_type: "site", object_id: site, comments: "stays" });
    expect(await sent.json()).toMatchObject({ object_type: "hardware", object_id: hw, comments: "stays" });
  });

  it("a stale If-Match is a 412", async () => {
    const entry = await write();
    await a.req("PATCH", `journal/${entry.id}`, a.editor, { comments: "second" });
    const before = await state();
    const patch = await a.req("PATCH", `journal/${entry.id}`, a.editor, { comments: "third" }, { "if-match": 'W/"1"' });
    expect(patch.status).toBe(412);
    expect((await a.req("DELETE", `journal/${entry.id}`, a.editor, undefined, { "if-match": 'W/"1"' })).status).toBe(412);
    expect(await state()).toEqual(before);
  });
});
