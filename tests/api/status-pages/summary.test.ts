// GET /status-pages/{slug}/summary (docs/adr/0454-status-pages.md): public, only what the page lists
// (no ids, hosts or internal names; messages only where a section opts in), states of monitor, service
// and tag items, 90 daily and 24 hourly bars, maintenance, the listed upstream that is down, the draft
// 404 that looks like any other, and ETag/304 with Cache-Control.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { changeStatusPages } from "../../helpers/app.ts";

let a: Actors;
let nasMonitor: number;
let shopMonitor: number;
let quietMonitor: number;
beforeAll(async () => {
  a = await createActors();
  const post = async (path: string, body: unknown) => {
    const res = await a.req("POST", path, a.admin, body);
    expect(res.status, path).toBe(201);
    return (await res.json()).id as number;
  };
  const nas = await post("hardware", { name: "nas-01-internal", tags: ["storage"], ip_address: "10.0.0.5" });
  const shop = await post("services", { name: "shop-backend-internal", hardware_id: nas });
  nasMonitor = await post("monitors", { name: "nas ping", check_type: "icmp", host: "10.0.0.5", target_type: "hardware", target_id: nas });
  shopMonitor = await post("monitors", {
    name: "shop http",
    check_type: "http",
    host: "shop.internal.lan",
    target_type: "service",
    target_id: shop,
  });
  quietMonitor = await post("monitors", { name: "unlisted-db", check_type: "tcp", host: "db9.secret.lan", config: { port: 5432 } });
  await a.t.sql`update monitors set status = 'down', last_msg = 'no answer from 10.0.0.5' where id = ${nasMonitor}`;
  await a.t.sql`update monitors set status = 'down', last_msg = 'connect refused shop.internal.lan' where id = ${shopMonitor}`;
  await a.t.sql`update monitors set status = 'up' where id = ${quietMonitor}`;
  const now = Date.now();
  // The current minute, never an earlier one: shortly after midnight UTC an earlier minute falls on
  // yesterday's bar, which the test expects empty.
  const minute = new Date(Math.floor(now / 60_000) * 60_000);
  await a.t.sql`insert into monitor_uptime_minutes (monitor_id, minute, up, total) values (${shopMonitor}, ${minute}, 3, 4)`;
  const fiveDaysAgo = new Date(now - 5 * 86_400_000).toISOString().slice(0, 10);
  await a.t.sql`insert into monitor_uptime_daily (monitor_id, day, up, total, minutes) values (${shopMonitor}, ${fiveDaysAgo}, 1, 2, 2)`;
  const win = await a.req("POST", "monitors/maintenance-windows", a.admin, {
    name: "internal-window-name",
    description: "swap disks in rack 7",
    starts_at: new Date(now - 3_600_000).toISOString(),
    ends_at: new Date(now + 3_600_000).toISOString(),
    monitor_ids: [nasMonitor],
  });
  expect(win.status).toBe(201);
  const page = await a.req("POST", "status-pages", a.admin, {
    slug: "public",
    title: "Family services",
    published: true,
    sections: [
      { name: "Infrastructure", show_messages: true, items: [{ kind: "monitor", monitor_id: nasMonitor, public_name: "Storage cluster" }] },
      {
        name: "Apps",
        items: [
          { kind: "service", service_id: shop, public_name: "Shop" },
          { kind: "tag", tag: "storage" },
        ],
      },
    ],
  });
  expect(page.status).toBe(201);
  expect((await a.req("POST", "status-pages", a.admin, { slug: "draft", title: "Secret draft" })).status).toBe(201);
});
afterAll(async () => a?.t.close());

const URL_OF = (slug: string) => `/api/v1/status-pages/${slug}/summary`;

/** Every key anywhere in a JSON value. */
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        out.add(k);
        stack.push(x);
      }
  }
  return out;
}

describe("status page summary", () => {
  it("answers without a credential with the listed items' public names, states, bars and maintenance", async () => {
    const res = await a.req("GET", URL_OF("public"));
    expect(res.status).toBe(200);
    const s = await res.json();
    expect(s).toMatchObject({
      slug: "public",
      title: "Family services",
      colors: { primary: "#fe8019", accent: "#fabd2f" },
      state: "outage",
    });
    const [infra, apps] = s.sections;
    expect(infra.items[0]).toMatchObject({
      name: "Storage cluster",
      state: "down",
      upstream_down: null,
      message: "no answer from 10.0.0.5",
    });
    expect(apps.items[0]).toMatchObject({ name: "Shop", state: "down", upstream_down: "Storage cluster" });
    // The tag's members follow it: the hardware carries the tag, and so does what runs on it.
    expect(apps.items[1]).toMatchObject({ name: "storage", state: "down" });
    expect(apps.items[0]).not.toHaveProperty("message");
    const shop = apps.items[0];
    expect(shop.days).toHaveLength(90);
    expect(shop.last_24h).toHaveLength(24);
    expect(shop.days.at(-1).date).toBe(new Date().toISOString().slice(0, 10));
    expect(shop.days.at(-6).uptime).toBe(50);
    expect(shop.days.at(-2).uptime).toBeNull();
    expect(shop.last_24h.some((h: { uptime: number | null }) => h.uptime === 75)).toBe(true);
    expect(infra.items[0].uptime_90d).toBeNull();
    expect(s.maintenance).toEqual([
      expect.objectContaining({ state: "in_progress", items: expect.arrayContaining(["Storage cluster", "storage"]) }),
    ]);
  });

  it("exposes no ids, hosts, internal names or window texts", async () => {
    const text = await (await a.req("GET", URL_OF("public"))).text();
    for (const leak of [
      "nas-01-internal",
      "shop-backend-internal",
      "shop.internal.lan",
      "db9.secret.lan",
      "unlisted-db",
      "internal-window-name",
      "rack 7",
      "Secret draft",
    ])
      expect(text, leak).not.toContain(leak);
    // The only host is in the opted-in section's message, which the admin chose to show.
    expect(text.split("10.0.0.5").length - 1).toBe(1);
    const keys = [...keysOf(JSON.parse(text))];
    expect(keys.filter((k) => /(^|_)ids?$/.test(k) || k === "host" || k === "tag")).toEqual([]);
  });

  it("answers a draft and an unknown slug with the same 404", async () => {
    const draft = await a.req("GET", URL_OF("draft"));
    const unknown = await a.req("GET", URL_OF("nothing-here"));
    expect(draft.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect((await draft.json()).detail).toBe((await unknown.json()).detail);
  });

  it("sends an ETag and Cache-Control, and 304 on If-None-Match", async () => {
    const first = await a.req("GET", URL_OF("public"));
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe("public, max-age=1");
    const again = await a.req("GET", URL_OF("public"), undefined, undefined, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    // A state change as the recording path makes it: the row and its NOTIFY in one transaction.
    await changeStatusPages(a.t, () =>
      a.t.sql.begin(async (tx) => {
        await tx`update monitors set status = 'up' where id = ${shopMonitor}`;
        await tx`select pg_notify('monitors', ${JSON.stringify({ type: "status", monitor_id: shopMonitor, status: "up" })})`;
      }),
    );
    const changed = await a.req("GET", URL_OF("public"), undefined, undefined, { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });
});
