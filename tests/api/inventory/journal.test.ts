// The journal of inventory objects (issue 33 item 6, docs/journal.md): create, list with its filters
// and order, get with its ETag, patch and delete with If-Match, the Markdown rendered and sanitised, the
// audit entries, and an object's journal going with the object.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

const create = async (path: string, body: Record<string, unknown>, token = a.editor) => {
  const res = await a.req("POST", path, token, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Record<string, unknown> & { id: number; version: number };
};
const note = (object_type: string, object_id: number, comments: string, extra: Record<string, unknown> = {}, token = a.editor) =>
  create("journal", { object_type, object_id, comments, ...extra }, token);
const entryIds = async (query: string) =>
  ((await (await a.req("GET", `journal?${query}`, a.viewer)).json()).items as { id: number }[]).map((e) => e.id);

describe("journal: happy", () => {
  it("writes, reads, lists, patches and deletes an object's entries", async () => {
    const hw = await create("hardware", { name: "jr-node" });
    const first = await note("hardware", hw.id, "Replaced the **PSU**.", { kind: "success" });
    expect(first).toMatchObject({
      object_type: "hardware",
      object_id: hw.id,
      kind: "success",
      comments: "Replaced the **PSU**.",
      comments_html: "<p>Replaced the <strong>PSU</strong>.</p>",
      created_by_name: null,
      version: 1,
    });
    expect(first.created_by).toEqual(expect.any(Number));
    const second = await note("hardware", hw.id, "Fan noise again");
    expect(second.kind).toBe("info");

    const got = await a.req("GET", `journal/${first.id}`, a.viewer);
    expect(got.status).toBe(200);
    expect(got.headers.get("etag")).toBe('W/"1"');
    expect((await got.json()).comments).toBe("Replaced the **PSU**.");

    // Newest first by default; the list envelope.
    const page = await (await a.req("GET", `journal?object_type=hardware&object_id=${hw.id}`, a.viewer)).json();
    expect(page).toMatchObject({ total: 2, limit: 25, offset: 0, sort: "created_at", direction: "desc" });
    expect(page.items.map((e: { id: number }) => e.id)).toEqual([second.id, first.id]);

    const patched = await a.req(
      "PATCH",
      `journal/${first.id}`,
      a.editor,
      { kind: "warning", comments: "PSU *again*" },
      { "if-match": 'W/"1"' },
    );
    expect(patched.status).toBe(200);
    expect(patched.headers.get("etag")).toBe('W/"2"');
    expect(await patched.json()).toMatchObject({ kind: "warning", comments_html: "<p>PSU <em>again</em></p>", version: 2 });

    const deleted = await a.req("DELETE", `journal/${second.id}`, a.editor, undefined, { "if-match": 'W/"1"' });
    expect(deleted.status).toBe(204);
    expect((await a.req("GET", `journal/${second.id}`, a.viewer)).status).toBe(404);
    expect(await entryIds(`object_type=hardware&object_id=${hw.id}`)).toEqual([first.id]);
  });

  it("every inventory kind has a journal", async () => {
    const site = await create("sites", { name: "jr-site" }, a.admin);
    const vlan = await create("vlans", { vlan_id: 77, name: "jr-vlan" });
    const env = await create("environments", { name: "jr-env" });
    for (const [type, id] of [
      ["site", site.id],
      ["vlan", vlan.id],
      ["environment", env.id],
    ] as const) {
      const entry = await note(type, id, `about ${type}`, {}, a.admin);
      expect(await entryIds(`object_type=${type}&object_id=${id}`)).toEqual([entry.id]);
    }
  });

  it("filters by kind, author and creation time, sorts, searches and leaves other objects' notes out", async () => {
    const svc = await create("services", { name: "jr-svc" });
    const other = await create("services", { name: "jr-other" });
    const info = await note("service", svc.id, "deployed v2");
    const danger = await note("service", svc.id, "outage: disk full", { kind: "danger" }, a.admin);
    await note("service", other.id, "someone else's");
    await a.t.sql`update journal_entries set created_at = '2026-01-10T00:00:00Z' where id = ${info.id}`;
    const one = `object_type=service&object_id=${svc.id}`;
    expect(await entryIds(`${one}&kind=danger`)).toEqual([danger.id]);
    expect(await entryIds(`${one}&created_by=${danger.created_by}`)).toEqual([danger.id]);
    expect(await entryIds(`${one}&created_before=2026-02-01`)).toEqual([info.id]);
    expect(await entryIds(`${one}&created_after=2026-02-01`)).toEqual([danger.id]);
    expect(await entryIds(`${one}&sort=created_at&direction=asc`)).toEqual([info.id, danger.id]);
    expect(await entryIds(`${one}&q=DISK`)).toEqual([danger.id]);
    // One kind of object, every object of it.
    expect((await entryIds("object_type=service")).length).toBe(3);
  });

  it("Markdown is rendered without raw HTML, scripts, handlers or dangerous links", async () => {
    const hw = await create("hardware", { name: "jr-xss" });
    const evil = [
      "<script>alert(1)</script>",
      '<img src=x onerror="alert(2)">',
      "[click](javascript:alert(3))",
      "[ok](https://example.com/runbook)",
      '<a href="https://x.example" onclick="alert(4)">x</a>',
    ].join("\n\n");
    const entry = await note("hardware", hw.id, evil);
    const html = entry.comments_html as string;
    expect(entry.comments).toBe(evil);
    // What the source says is shown as text; no element, handler or link of its own gets through.
    expect(html).not.toMatch(/<(script|img)\b/i);
    expect(html).not.toMatch(/<[^>]*\son\w+=/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect([...html.matchAll(/<a\b[^>]*>/g)].every((m) => m[0].includes('rel="noopener nofollow"'))).toBe(true);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain('<a href="https://example.com/runbook" rel="noopener nofollow">ok</a>');
  });

  it("each write is audited with its diff", async () => {
    const hw = await create("hardware", { name: "jr-audit" });
    const entry = await note("hardware", hw.id, "audited");
    await a.req("PATCH", `journal/${entry.id}`, a.editor, { comments: "audited twice" });
    await a.req("DELETE", `journal/${entry.id}`, a.editor);
    const rows = await a.t
      .sql`select action, actor_email, diff from audit_log where entity_type = 'journal_entry' and entity_id = ${String(entry.id)} order by id`;
    expect(rows.map((r) => r.action)).toEqual(["journal_entry.create", "journal_entry.update", "journal_entry.delete"]);
    expect(rows[0]!.actor_email).toBe("editor@example.com");
    expect(rows[0]!.diff.after).toMatchObject({ object_type: "hardware", object_id: hw.id, kind: "info", comments: "audited" });
    expect(rows[1]!.diff).toEqual({ before: { comments: "audited" }, after: { comments: "audited twice" } });
    expect(rows[2]!.diff.before).toMatchObject({ comments: "audited twice" });
  });

  it("a PATCH that changes nothing writes nothing", async () => {
    const hw = await create("hardware", { name: "jr-same" });
    const entry = await note("hardware", hw.id, "same");
    const res = await a.req("PATCH", `journal/${entry.id}`, a.editor, { comments: "same", kind: "info" });
    expect((await res.json()).version).toBe(1);
    const [n] = await a.t
      .sql`select count(*)::int as n from audit_log where action = 'journal_entry.update' and entity_id = ${String(entry.id)}`;
    expect(n!.n).toBe(0);
  });

  it("deleting an object deletes its journal in the same transaction, and only its journal", async () => {
    const gone = await create("hardware", { name: "jr-gone" });
    const stays = await create("hardware", { name: "jr-stays" });
    await note("hardware", gone.id, "one");
    await note("hardware", gone.id, "two");
    const kept = await note("hardware", stays.id, "kept");
    expect((await a.req("DELETE", `hardware/${gone.id}`, a.admin)).status).toBe(204);
    const [left] = await a.t.sql`select count(*)::int as n from journal_entries where object_type = 'hardware' and object_id = ${gone.id}`;
    expect(left!.n).toBe(0);
    expect(await entryIds(`object_type=hardware&object_id=${stays.id}`)).toEqual([kept.id]);
    const [audit] = await a.t.sql`select diff from audit_log where action = 'hardware.delete' and entity_id = ${String(gone.id)}`;
    expect(audit!.diff.references_removed).toBe(2);
    // The journal of a deleted object is a 404, like the object.
    expect((await a.req("GET", `journal?object_type=hardware&object_id=${gone.id}`, a.viewer)).status).toBe(404);
  });
});
