// A list streamed as NDJSON (docs/adr/0503) against real PostgreSQL: GET {base} with
// Accept: application/x-ndjson answers every matching item, one per line, in the list's own order and
// filters, past one cursor chunk; refusals (scope, bad parameters, an unknown custom field) are the usual
// error envelope; without that Accept the list envelope is what it was.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STREAM_CHUNK } from "../../../shared/verbs/resources/list.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";

const NDJSON = { accept: "application/x-ndjson" };

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

async function streamed(path: string, token = a.viewer): Promise<Record<string, unknown>[]> {
  const res = await a.req("GET", path, token, undefined, NDJSON);
  expect(res.status, path).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
  expect(res.headers.get("vary")).toContain("Accept");
  const text = await res.text();
  if (text === "") return [];
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("a list streamed as NDJSON", () => {
  it("answers every matching row once, in the list's order, past one chunk", async () => {
    const n = STREAM_CHUNK * 2 + 37;
    await a.t
      .sql`insert into misc_items (name, kind) select 'nd-' || lpad(g::text, 5, '0'), case when g % 3 = 0 then 'three' else 'other' end from generate_series(1, ${n}) g`;
    const all = await streamed("misc?q=nd-&sort=name");
    expect(all.length).toBe(n);
    expect(all.map((r) => r.name)).toEqual(Array.from({ length: n }, (_, i) => `nd-${String(i + 1).padStart(5, "0")}`));
    const desc = await streamed("misc?q=nd-&sort=name&direction=desc&kind=three");
    expect(desc.length).toBe(Math.floor(n / 3));
    expect(desc[0]!.name).toBe(`nd-${String(n - (n % 3)).padStart(5, "0")}`);
    expect(desc.every((r) => r.kind === "three")).toBe(true);
    // limit and offset do not apply to the stream; the paged list still pages.
    expect((await streamed("misc?q=nd-&limit=5&offset=10")).length).toBe(n);
  });

  it("gives the same items as the paged list, in the same order", async () => {
    const site = (await (await a.req("POST", "sites", a.admin, { name: "nd-site" })).json()).id as number;
    for (const [i, memory] of [32, 8, 64, 8].entries())
      expect((await a.req("POST", "hardware", a.admin, { name: `nd-hw-${i}`, memory_gb: memory, site_id: site })).status).toBe(201);
    await a.req("POST", "hardware", a.admin, { name: "nd-hw-elsewhere" });
    const query = `hardware?site_id=${site}&sort=memory_gb&direction=desc`;
    const page = await a.req("GET", query, a.viewer);
    expect(page.headers.get("content-type")).toMatch(/^application\/json/);
    const envelope = await page.json();
    expect(Object.keys(envelope).sort()).toEqual(["direction", "items", "limit", "offset", "sort", "total"]);
    expect(envelope.total).toBe(4);
    expect(await streamed(query)).toEqual(envelope.items);
    expect((await streamed(`${query}&q=nothing-matches`)).length).toBe(0);
    // Accept naming it with q=0 is not asking for it.
    const declined = await a.req("GET", query, a.viewer, undefined, { accept: "application/x-ndjson;q=0, application/json" });
    expect((await declined.json()).total).toBe(4);
  });

  it("refuses with the error envelope before the first line", async () => {
    const badSort = await a.req("GET", "hardware?sort=bogus", a.viewer, undefined, NDJSON);
    expect(badSort.status).toBe(422);
    expect(badSort.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await badSort.json();
    expect(body.error_code).toBeDefined();
    expect(body.detail[0].loc).toEqual(["query", "sort"]);
    const unknownField = await a.req("GET", "hardware?cf_no_such_field=1", a.viewer, undefined, NDJSON);
    expect(unknownField.status).toBe(422);
    expect((await unknownField.json()).detail[0].loc).toEqual(["query", "cf_no_such_field"]);

    const created = await a.req("POST", "auth/api-token", a.admin, { label: "sites only", scopes: ["read:sites"] });
    const sitesOnly = (await created.json()).token as string;
    const denied = await a.req("GET", "hardware", sitesOnly, undefined, NDJSON);
    expect(denied.status).toBe(403);
    expect((await denied.json()).error_code).toBe("PERMISSION_DENIED");
    expect((await streamed("sites?q=nd-site", sitesOnly)).map((s) => s.name)).toEqual(["nd-site"]);
    expect((await a.req("GET", "hardware", undefined, undefined, NDJSON)).status).toBe(401);
  });
});
