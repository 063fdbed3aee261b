// Event rules and the bulk writers (docs/event-rules.md, "Bulk writes"): an inventory import that merges
// sends one event per created or updated row with its before and after, inserted for the whole import
// at once; its dry run sends nothing; a bulk update sends one per record from one read of the rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, startPeer } from "../sidecar/notifications/support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

type Doc = Record<string, Record<string, unknown>[]>;

describe("event rules and bulk writes", () => {
  it("an import sends each created and updated row once, a dry run nothing", async () => {
    const peer = await startPeer();
    const sink = await (
      await h.req("POST", "notifications/sinks", h.admin, {
        name: "bulk-hook",
        provider_type: "webhook",
        provider_config: { url: peer.url },
      })
    ).json();
    const names = ["imp-a", "imp-b", "imp-c"];
    for (const name of names) expect((await h.req("POST", "hardware", h.admin, { name })).status).toBe(201);
    const rule = await (
      await h.req("POST", "event-rules", h.admin, {
        name: "imports",
        kinds: ["hardware"],
        actions: ["created", "updated"],
        sink_ids: [sink.id],
      })
    ).json();
    const doc = (await (await h.req("GET", "/api/v1/admin/export", h.admin)).json()) as Doc;
    const hw = doc.hardware!.filter((x) => names.includes(String(x.name)));
    hw[0]!.name = "imp-a-renamed";
    const maxId = Math.max(...doc.hardware!.map((x) => Number(x.id)));
    hw.push({ ...hw[1]!, id: maxId + 100, name: "imp-new", tags: [] });

    const events = async () =>
      Number((await h.t.sql`select count(*)::int as n from notification_deliveries where event_rule_id = ${rule.id}`)[0]!.n);
    const dry = await h.req("POST", "/api/v1/admin/import?dry_run=true", h.admin, { data: { hardware: hw } });
    expect(dry.status).toBeLessThan(300);
    expect((await dry.json()).imported).toBe(false);
    expect(await events()).toBe(0);

    const res = await h.req("POST", "/api/v1/admin/import", h.admin, { data: { hardware: hw } });
    expect(res.status).toBe(201);
    expect((await res.json()).kinds.hardware).toMatchObject({ created: 1, updated: 1 });
    await h.until(async () => peer.received.length >= 2, "the import's two events");
    const bodies = peer.received.map((x) => JSON.parse(x.body));
    const updated = bodies.find((b) => b.event === "updated");
    expect(updated.snapshots).toMatchObject({ prechange: { name: "imp-a" }, postchange: { name: "imp-a-renamed" } });
    expect(typeof updated.snapshots.postchange.created_at).toBe("string");
    expect(bodies.find((b) => b.event === "created")).toMatchObject({
      id: maxId + 100,
      data: { name: "imp-new" },
      snapshots: { prechange: null },
    });
    expect(await events()).toBe(2);

    // A bulk update: one event per record.
    const ids = doc.hardware!.filter((x) => names.includes(String(x.name))).map((x) => Number(x.id));
    expect((await h.req("POST", "hardware/bulk-update", h.admin, { ids, set: { notes: "bulk" } })).status).toBe(200);
    await h.until(async () => peer.received.length >= 2 + ids.length, "one event per record");
    expect(await events()).toBe(2 + ids.length);
    await peer.close();
  });
});
