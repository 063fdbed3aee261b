// The streamed inventory export inside workerd: the document is read after the handler returned, from
// the request's own database client, which must stay open until the last page and close after it.
import type { Miniflare } from "miniflare";
import postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { seedRichInventory } from "../helpers/inventory-seed.ts";
import { buildBundle, type EdgeBundle, openConnectionsAfterWait, startWorker } from "./harness.ts";

const BASE = "http://edge.test";
let bundle: EdgeBundle;
let database: TestDatabase;
let mf: Miniflare;

beforeAll(async () => {
  const results = await Promise.allSettled([buildBundle().then((b) => (bundle = b)), createTestDatabase().then((d) => (database = d))]);
  for (const r of results) if (r.status === "rejected") throw r.reason;
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    await seedRichInventory(sql);
    // More hardware than one page (2,000 rows), so the export reads several pages after the handler returned.
    await sql`insert into hardware (name) select 'edge-' || g from generate_series(1, 4500) g`;
  } finally {
    await sql.end();
  }
  mf = startWorker(bundle, { bindings: { DATABASE_URL: database.url, LOG_LEVEL: "warn", SVC_SETUP_TOKEN: "edge-setup-token" } });
  await mf.ready;
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
  await database?.drop();
  await bundle?.remove();
});

it("streams the whole export from the per-request client and then closes it", async () => {
  const init = await mf.dispatchFetch(`${BASE}/api/v1/bootstrap/initialize`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@example.com", password: "admin password for tests", setup_token: "edge-setup-token" }),
  });
  expect(init.status).toBe(200);
  const { token } = (await init.json()) as { token: string };
  const res = await mf.dispatchFetch(`${BASE}/api/v1/admin/export`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const doc = JSON.parse(await res.text()) as { version: number; hardware: { name: string }[]; services: unknown[] };
  expect(doc.version).toBe(2);
  expect(doc.hardware).toHaveLength(4502);
  expect(doc.hardware.at(-1)!.name).toBe("edge-4500");
  expect(doc.services).toHaveLength(2);

  expect(await openConnectionsAfterWait(database.name)).toBe(0);
});
