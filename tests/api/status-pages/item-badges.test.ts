// Status page items' public SVG badges and keys (docs/adr/0461): each item's key (a slug of its public
// name unless one is sent back, unique within the page, kept across renames), each badge kind over the
// item's monitors (judged state, summed buckets, pooled response time, soonest certificate), the one 404
// for a draft's item, an unknown page or key, the label, ETag/304; and a monitor's own badges made public
// by being a monitor item of a published page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonitorActors, type MonitorActors } from "../monitors/support.ts";

let a: MonitorActors;
let web1: number;
let web2: number;
let db: number;
let hidden: number;
let pageId: number;
const MIN = 60_000;

beforeAll(async () => {
  a = await createMonitorActors();
  const shop = await a.service("shop-internal");
  web1 = (await a.monitor({ check_type: "http", host: "web1.lan", config: {}, target_type: "service", target_id: shop })).id;
  web2 = (await a.monitor({ check_type: "http", host: "web2.lan", config: {}, target_type: "service", target_id: shop })).id;
  db = (await a.monitor()).id;
  hidden = (await a.monitor()).id;
  const res = await a.req("POST", "status-pages", a.admin, {
    slug: "pub",
    title: "Public",
    published: true,
    sections: [
      {
        name: "All",
        items: [
          { kind: "monitor", monitor_id: db, public_name: "Database" },
          { kind: "service", service_id: shop, public_name: "Shop (EU)" },
          { kind: "tag", tag: "nothing-tagged" },
          { kind: "monitor", monitor_id: db, public_name: "Database", key: "db-two" },
          { kind: "monitor", monitor_id: db, public_name: "Database" },
        ],
      },
    ],
  });
  expect(res.status, await res.clone().text()).toBe(201);
  pageId = (await res.json()).id;
  const draft = await a.req("POST", "status-pages", a.admin, {
    slug: "draft",
    title: "Draft",
    sections: [{ name: "S", items: [{ kind: "monitor", monitor_id: hidden, public_name: "Secret" }] }],
  });
  expect(draft.status).toBe(201);
  await a.t.sql`update monitors set status = 'up' where id in ${a.t.sql([db, hidden])}`;
});
afterAll(async () => a?.t.close());

const badge = (slug: string, key: string, kind: string, query = "", headers: Record<string, string> = {}) =>
  a.req("GET", `badges/status-pages/${slug}/items/${key}/${kind}.svg${query}`, undefined, undefined, headers);

/** The badge's left and right texts and right-hand colour. */
async function read(res: Response) {
  expect(res.status, await res.clone().text()).toBe(200);
  const svg = await res.text();
  const texts = [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  const fills = [...svg.matchAll(/<rect [^>]*fill="(#[0-9a-f]+)"/g)].map((m) => m[1]);
  return { svg, label: texts[2], message: texts.at(-1), color: fills[1] };
}

describe("item keys", () => {
  it("are slugs of the public names, unique within the page, a sent key kept; returned by the read", async () => {
    const page = await (await a.req("GET", `status-pages/${pageId}`, a.viewer)).json();
    expect(page.sections[0].items.map((i: { key: string }) => i.key)).toEqual([
      "database",
      "shop-eu",
      "nothing-tagged",
      "db-two",
      "database-2",
    ]);
  });

  it("survive a save that sends them back with a new public name", async () => {
    const page = await (await a.req("GET", `status-pages/${pageId}`, a.admin)).json();
    const sections = page.sections.map((s: { name: string; items: Record<string, unknown>[] }) => ({
      name: s.name,
      items: s.items.map(({ kind, monitor_id, service_id, tag, public_name, key }) => ({
        kind,
        ...(kind === "monitor" ? { monitor_id } : kind === "service" ? { service_id } : { tag }),
        public_name: key === "database" ? "Main database" : public_name,
        key,
      })),
    }));
    const res = await a.req("PATCH", `status-pages/${pageId}`, a.admin, { sections });
    expect(res.status, await res.clone().text()).toBe(200);
    const saved = await res.json();
    expect(saved.published).toBe(true);
    const after = saved.sections[0].items;
    expect(after[0]).toMatchObject({ key: "database", public_name: "Main database" });
    expect(after.map((i: { key: string }) => i.key)).toEqual(["database", "shop-eu", "nothing-tagged", "db-two", "database-2"]);
    expect(await read(await badge("pub", "database", "status"))).toMatchObject({ label: "Main database", message: "up" });
  });

  it("refuse a key sent twice or malformed with a 422 naming it, changing nothing", async () => {
    const twice = await a.req("PATCH", `status-pages/${pageId}`, a.admin, {
      sections: [
        {
          name: "S",
          items: [
            { kind: "monitor", monitor_id: db, public_name: "A", key: "same" },
            { kind: "monitor", monitor_id: db, public_name: "B", key: "same" },
          ],
        },
      ],
    });
    expect(twice.status).toBe(422);
    expect(JSON.stringify(await twice.json())).toContain('"sections",0,"items",1,"key"');
    const bad = await a.req("PATCH", `status-pages/${pageId}`, a.admin, {
      sections: [{ name: "S", items: [{ kind: "monitor", monitor_id: db, public_name: "A", key: "-no-" }] }],
    });
    expect(bad.status).toBe(422);
    const page = await (await a.req("GET", `status-pages/${pageId}`, a.admin)).json();
    expect(page.sections[0].items).toHaveLength(5);
  });
});

describe("item badges", () => {
  it("status: the item's judged state, the public name as label", async () => {
    await a.t.sql`update monitors set status = 'down' where id = ${web1}`;
    await a.t.sql`update monitors set status = 'up' where id = ${web2}`;
    expect(await read(await badge("pub", "shop-eu", "status"))).toMatchObject({
      label: "Shop (EU)",
      message: "degraded",
      color: "#dfb317",
    });
    await a.t.sql`update monitors set status = 'down' where id = ${web2}`;
    expect(await read(await badge("pub", "shop-eu", "status"))).toMatchObject({ message: "down", color: "#e05d44" });
    await a.t.sql`update monitors set status = 'up' where id in ${a.t.sql([web1, web2])}`;
    expect(await read(await badge("pub", "SHOP-EU", "status"))).toMatchObject({ message: "up", color: "#4c1" });
    // A tag nothing carries: no monitor, so unknown.
    expect(await read(await badge("pub", "nothing-tagged", "status"))).toMatchObject({
      label: "nothing-tagged",
      message: "unknown",
      color: "#9f9f9f",
    });
  });

  it("uptime: every check of the item's monitors in the window", async () => {
    expect(await read(await badge("pub", "shop-eu", "uptime"))).toMatchObject({ message: "no data", label: "Shop (EU) uptime 24h" });
    const now = a.clock.now().getTime();
    // 24 h: 1000 + 990 of 2000 (99.5 %); 7 d adds 0 of 2000 three days ago (1990 / 4000 = 49.75 %).
    await a.t.sql`insert into monitor_uptime_minutes (monitor_id, minute, up, total) values
      (${web1}, ${new Date(now - 10 * MIN)}, ${1000}, ${1000}), (${web2}, ${new Date(now - 20 * MIN)}, ${990}, ${1000}),
      (${web2}, ${new Date(now - 3 * 1440 * MIN)}, ${0}, ${2000})`;
    expect(await read(await badge("pub", "shop-eu", "uptime"))).toMatchObject({ message: "99.5%", color: "#97ca00" });
    expect(await read(await badge("pub", "shop-eu", "uptime", "?period=7d"))).toMatchObject({
      message: "49.75%",
      color: "#e05d44",
      label: "Shop (EU) uptime 7d",
    });
  });

  it("response time: the average of the successful checks of all its monitors", async () => {
    const now = a.clock.now().getTime();
    await a.t.sql`insert into monitor_samples (monitor_id, ts, avail, latency_ms) values
      (${web1}, ${new Date(now - 5 * MIN)}, true, 100), (${web2}, ${new Date(now - 4 * MIN)}, true, 200),
      (${web2}, ${new Date(now - 3 * MIN)}, true, 600), (${web1}, ${new Date(now - 2 * MIN)}, false, 9000)`;
    expect(await read(await badge("pub", "shop-eu", "response-time"))).toMatchObject({
      message: "300 ms",
      color: "#97ca00",
      label: "Shop (EU) response time 24h",
    });
  });

  it("certificate: the soonest to expire; none recorded by its checks is the 404", async () => {
    expect(await read(await badge("pub", "shop-eu", "cert-expiry"))).toMatchObject({ message: "no data", label: "Shop (EU) certificate" });
    const now = a.clock.now().getTime();
    await a.t.sql`insert into monitor_samples (monitor_id, ts, avail, cert_days_remaining) values
      (${web1}, ${new Date(now - MIN)}, true, 80), (${web2}, ${new Date(now - 2 * 1440 * MIN - MIN)}, true, 14),
      (${web2}, ${new Date(now - 5 * 1440 * MIN)}, true, 3)`;
    expect(await read(await badge("pub", "shop-eu", "cert-expiry"))).toMatchObject({ message: "12 days", color: "#fe7d37" });
    expect((await badge("pub", "database", "cert-expiry")).status).toBe(404);
  });

  it("answers one 404 body for a draft's item, an unknown page or key and a malformed one, like the monitors'", async () => {
    const bodies = new Set<string>();
    for (const [slug, key] of [
      ["draft", "secret"],
      ["nope", "database"],
      ["pub", "nope"],
      ["pub", "-x-"],
      ["PUB!", "database"],
      ["pub", "x".repeat(65)],
    ] as const)
      for (const kind of ["status", "uptime", "response-time", "cert-expiry"]) {
        const res = await badge(slug, key, kind);
        expect(res.status, `${slug}/${key}/${kind}`).toBe(404);
        bodies.add(await res.text());
      }
    bodies.add(await (await a.req("GET", `badges/monitors/${hidden}/status.svg`)).text());
    expect(bodies.size).toBe(1);
    expect([...bodies][0]).not.toMatch(/draft|secret/i);
  });

  it("takes a label (escaped; empty for none) and a style", async () => {
    const b = await read(await badge("pub", "shop-eu", "status", `?label=${encodeURIComponent("<b>shop</b>")}`));
    expect(b.svg).toContain("&lt;b&gt;shop&lt;/b&gt;");
    expect(b.svg).not.toContain("<b>");
    expect(await (await badge("pub", "shop-eu", "status", "?label=")).text()).toContain("<title>up</title>");
    expect(await (await badge("pub", "shop-eu", "status", "?style=flat-square")).text()).not.toContain('rx="3"');
    expect((await badge("pub", "shop-eu", "status", `?label=${"x".repeat(65)}`)).status).toBe(422);
  });

  it("is cacheable for a minute with an ETag answering 304", async () => {
    const res = await badge("pub", "shop-eu", "status");
    expect(res.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const etag = res.headers.get("etag")!;
    const again = await badge("pub", "shop-eu", "status", "", { "if-none-match": etag });
    expect(again.status).toBe(304);
    await a.t.sql`update monitors set status = 'down' where id = ${web1}`;
    expect((await badge("pub", "shop-eu", "status", "", { "if-none-match": etag })).status).toBe(200);
  });
});

describe("a monitor's own badges", () => {
  it("are public while it is a monitor item of a published page, not as a service's member or on a draft", async () => {
    const monitorBadge = (id: number) => a.req("GET", `badges/monitors/${id}/status.svg`);
    expect((await monitorBadge(db)).status).toBe(200);
    // web1 is on the page only through the service item; hidden only on the draft.
    expect((await monitorBadge(web1)).status).toBe(404);
    expect((await monitorBadge(hidden)).status).toBe(404);
    // Reads say so (the console shows the badges then), for a listed monitor only.
    expect((await (await a.req("GET", `monitors/${db}`, a.viewer)).json()).badge_listed).toBe(true);
    expect((await (await a.req("GET", `monitors/${web1}`, a.viewer)).json()).badge_listed).toBe(false);
    expect((await (await a.req("GET", `monitors/${hidden}`, a.viewer)).json()).badge_listed).toBe(false);
    // Its default label stays generic: the monitor may be on several pages under several names.
    expect(await read(await monitorBadge(db))).toMatchObject({ label: "status" });
    expect((await a.req("PATCH", `status-pages/${pageId}`, a.admin, { published: false })).status).toBe(200);
    expect((await monitorBadge(db)).status).toBe(404);
    expect((await badge("pub", "shop-eu", "status")).status).toBe(404);
    expect((await (await a.req("GET", `monitors/${db}`, a.viewer)).json()).badge_listed).toBe(false);
    expect((await a.req("PATCH", `status-pages/${pageId}`, a.admin, { published: true })).status).toBe(200);
    expect((await monitorBadge(db)).status).toBe(200);
  });
});
