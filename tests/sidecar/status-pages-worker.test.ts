// Automatic incident proposals (docs/adr/0456-status-page-incidents.md) against real PostgreSQL with a
// driven clock: a listed item going down gets one automatic draft, published after the page's delay if
// still down (by a fresh worker: nothing is kept in memory), discarded if it recovered first, kept for
// an operator when the delay is null; an item an open incident already names gets none; two workers
// racing propose once; a NOTIFY of a state change starts a round; publication NOTIFYs `status_pages`.
import postgres from "postgres";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import { statusPagesWorker } from "../../sidecar/status-pages/status-pages-worker.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { DrivenClock, insertMonitor, openTestRuntime, rowsOf } from "./monitors/support.ts";

let db: TestDatabase;
let runtime: NodeRuntime;
let listener: postgres.Sql;
const notices: Record<string, unknown>[] = [];
const clock = new DrivenClock();

beforeAll(async () => {
  db = await createTestDatabase();
  runtime = await openTestRuntime(db.url, clock);
  listener = postgres(db.url, { max: 1, onnotice: () => {} });
  await listener.listen("status_pages", (p) => notices.push(JSON.parse(p)));
});
afterAll(async () => {
  await listener?.end();
  await runtime?.close();
  await db?.drop();
});

let nas: number;
let web: number;
let pageId: number;
beforeEach(async () => {
  await runtime.database.db.execute(sql`delete from status_pages; delete from monitors`);
  notices.length = 0;
  nas = await insertMonitor(runtime, { check_type: "icmp", host: "10.0.0.5", status: "up" });
  web = await insertMonitor(runtime, { check_type: "http", host: "web.lan", status: "up" });
  pageId = await page("home", 60);
});

async function page(slug: string, publishAfter: number | null): Promise<number> {
  const [row] = await rowsOf<{ id: number }>(
    runtime,
    sql`insert into status_pages (slug, title, published, auto_incidents, auto_publish_after_s)
        values (${slug}, ${slug}, true, true, ${publishAfter}) returning id`,
  );
  const [section] = await rowsOf<{ id: number }>(
    runtime,
    sql`insert into status_page_sections (page_id, position, name) values (${row!.id}, 0, 'All') returning id`,
  );
  await runtime.database.db.execute(sql`insert into status_page_items (section_id, position, kind, monitor_id, public_name, key)
    values (${section!.id}, 0, 'monitor', ${nas}, 'Storage', 'storage'), (${section!.id}, 1, 'monitor', ${web}, 'Website', 'website')`);
  return row!.id;
}

const setStatus = (id: number, status: string) => runtime.database.db.execute(sql`update monitors set status = ${status} where id = ${id}`);
const incidents = (id = pageId) =>
  rowsOf<{ id: number; title: string; source: string; published_at: string | null; publish_after: string | null; auto_key: string }>(
    runtime,
    sql`select id, title, source, published_at, publish_after, auto_key from status_page_incidents where page_id = ${id} order by id`,
  );
const worker = () => statusPagesWorker(runtime, { pollMs: 3_600_000, debounceMs: 20 });

/** Polls `check` every 25 ms for at most 5 s. */
async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("condition not met within 5 s");
}

describe("status pages worker: automatic incidents", () => {
  it("proposes one draft for a down item and publishes it after the delay if still down", async () => {
    await setStatus(nas, "down");
    expect(await worker().tick()).toEqual({ proposed: 1, published: 0, discarded: 0 });
    expect(await worker().tick()).toEqual({ proposed: 0, published: 0, discarded: 0 });
    const [draft] = await incidents();
    expect(draft).toMatchObject({ title: "Storage is down", source: "automatic", published_at: null, auto_key: `monitor:${nas}` });
    expect(new Date(draft!.publish_after!).getTime()).toBe(clock.now().getTime() + 60_000);
    const [update] = await rowsOf<{ status: string; body: string }>(runtime, sql`select status, body from status_page_incident_updates`);
    expect(update).toMatchObject({ status: "investigating", body: expect.stringContaining("Storage") });
    expect(notices).toEqual([]);

    clock.advance(59_000);
    expect((await worker().tick()).published).toBe(0);
    clock.advance(1_000);
    // A new worker (a restart, or another sidecar) carries on from what the database holds.
    expect(await worker().tick()).toEqual({ proposed: 0, published: 1, discarded: 0 });
    expect((await incidents())[0]!.published_at).not.toBeNull();
    await eventually(() => notices.length === 1);
    expect(notices[0]).toEqual({ type: "incident", change: "published", page_id: pageId, incident_id: draft!.id });
    const audit = await rowsOf<{ action: string }>(
      runtime,
      sql`select action from audit_log where entity_type = 'status_page_incident' order by id`,
    );
    expect(audit.map((r) => r.action)).toEqual(["status_page.incident_propose", "status_page.incident_publish"]);

    // Published, it stays for an operator to resolve even once the item is up again.
    await setStatus(nas, "up");
    expect(await worker().tick()).toEqual({ proposed: 0, published: 0, discarded: 0 });
    expect(await incidents()).toHaveLength(1);
  });

  it("discards an automatic draft whose item recovered before publication", async () => {
    await setStatus(web, "down");
    await worker().tick();
    await setStatus(web, "up");
    clock.advance(30_000);
    expect(await worker().tick()).toEqual({ proposed: 0, published: 0, discarded: 1 });
    expect(await incidents()).toEqual([]);
    expect(notices).toEqual([]);
  });

  it("keeps a draft for an operator when the page's delay is null, and proposes nothing for an item already named", async () => {
    const manual = await page("manual", null);
    await runtime.database.db.execute(sql`insert into status_page_incidents (page_id, public_key, title, status, impact, source, affected)
      values (${manual}, 'operatorkey1', 'Website trouble', 'identified', 'minor', 'operator', ${JSON.stringify([{ kind: "monitor", monitor_id: web }])}::jsonb)`);
    await setStatus(nas, "down");
    await setStatus(web, "down");
    await worker().tick();
    clock.advance(7 * 86_400_000);
    await worker().tick();
    const rows = await incidents(manual);
    expect(rows.map((r) => [r.title, r.source, r.published_at])).toEqual([
      ["Website trouble", "operator", null],
      ["Storage is down", "automatic", null],
    ]);
  });

  it("proposes once when two workers race", async () => {
    await setStatus(nas, "down");
    await setStatus(web, "down");
    await Promise.all([worker().tick(), worker().tick(), worker().tick()]);
    await Promise.all([worker().tick(), worker().tick()]);
    expect((await incidents()).map((r) => r.title).sort()).toEqual(["Storage is down", "Website is down"]);
  });

  it("starts a round when a monitor's state change is announced", async () => {
    const w = worker();
    await w.start();
    try {
      await setStatus(nas, "down");
      await runtime.database.db.execute(
        sql`select pg_notify('monitors', ${JSON.stringify({ type: "status", monitor_id: nas, status: "down" })})`,
      );
      await eventually(async () => (await incidents()).length === 1);
    } finally {
      await w.stop();
    }
  });
});
