// Public SVG badges (docs/adr/0455): the badge_public flag on create, PATCH and read; each badge's value and
// colour for seeded buckets and samples; one 404 body for private and missing monitors; labels as text;
// the caching headers with ETag and 304.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

const MIN = 60_000;
const badge = (id: number | string, kind: string, query = "", headers: Record<string, string> = {}) =>
  a.req("GET", `badges/monitors/${id}/${kind}.svg${query}`, undefined, undefined, headers);

/** The badge's right-hand text and colour: its last <text> and its second <rect>'s fill. */
async function read(res: Response) {
  expect(res.status, await res.clone().text()).toBe(200);
  const svg = await res.text();
  const texts = [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  const fills = [...svg.matchAll(/<rect [^>]*fill="(#[0-9a-f]+)"/g)].map((m) => m[1]);
  return { svg, label: texts[2], message: texts.at(-1), color: fills[1], labelColor: fills[0] };
}

async function publicMonitor(body: Record<string, unknown> = {}) {
  return a.monitor({ badge_public: true, ...body });
}

describe("badge_public", () => {
  it("is false by default, set on create and by PATCH, and shown by reads", async () => {
    const off = await a.monitor();
    expect(off.badge_public).toBe(false);
    const on = await publicMonitor();
    expect(on.badge_public).toBe(true);
    const patched = await a.req("PATCH", `monitors/${off.id}`, a.admin, { badge_public: true });
    expect(patched.status).toBe(200);
    expect((await patched.json()).badge_public).toBe(true);
    expect((await (await a.req("GET", `monitors/${off.id}`, a.viewer)).json()).badge_public).toBe(true);
    expect((await a.req("PATCH", `monitors/${off.id}`, a.admin, { badge_public: "yes" })).status).toBe(422);
    // A viewer cannot make a monitor public.
    expect((await a.req("PATCH", `monitors/${on.id}`, a.viewer, { badge_public: false })).status).toBe(403);
  });
});

describe("badges", () => {
  it("status: each state in its shields colour, paused whatever the last status", async () => {
    const m = await publicMonitor();
    const cases: [string, boolean, string, string][] = [
      ["up", true, "up", "#4c1"],
      ["down", true, "down", "#e05d44"],
      ["degraded", true, "degraded", "#dfb317"],
      ["pending", true, "pending", "#9f9f9f"],
      ["maintenance", true, "maintenance", "#007ec6"],
      ["up", false, "paused", "#9f9f9f"],
    ];
    for (const [status, enabled, message, color] of cases) {
      await a.t.sql`update monitors set status = ${status}, enabled = ${enabled} where id = ${m.id}`;
      const b = await read(await badge(m.id, "status"));
      expect({ status, message: b.message, color: b.color, label: b.label, labelColor: b.labelColor }).toEqual({
        status,
        message,
        color,
        label: "status",
        labelColor: "#555",
      });
    }
  });

  it("uptime: the window's buckets, shields' steps, no data without checks", async () => {
    const m = await publicMonitor();
    expect(await read(await badge(m.id, "uptime"))).toMatchObject({ message: "no data", color: "#9f9f9f", label: "uptime 24h" });
    const now = a.clock.now().getTime();
    // 24 h: 995 of 1000 (99.5 %, green); 7 d adds 100 of 200 two days ago (1095 / 1200 = 91.25 %, orange).
    await a.t.sql`insert into monitor_uptime_minutes (monitor_id, minute, up, total) values
      (${m.id}, ${new Date(now - 10 * MIN)}, ${995}, ${1000}),
      (${m.id}, ${new Date(now - 2 * 1440 * MIN)}, ${100}, ${200}),
      (${m.id}, ${new Date(now - 40 * 1440 * MIN)}, ${0}, ${5000})`;
    expect(await read(await badge(m.id, "uptime"))).toMatchObject({ message: "99.5%", color: "#97ca00" });
    expect(await read(await badge(m.id, "uptime", "?period=7d"))).toMatchObject({
      message: "91.25%",
      color: "#fe7d37",
      label: "uptime 7d",
    });
    expect(await read(await badge(m.id, "uptime", "?period=30d"))).toMatchObject({ message: "91.25%" });
    expect((await badge(m.id, "uptime", "?period=1y")).status).toBe(422);
  });

  it("response time: the average of successful checks in the window", async () => {
    const m = await publicMonitor();
    expect(await read(await badge(m.id, "response-time"))).toMatchObject({ message: "no data", color: "#9f9f9f" });
    const now = a.clock.now().getTime();
    await a.t.sql`insert into monitor_samples (monitor_id, ts, avail, latency_ms) values
      (${m.id}, ${new Date(now - 5 * MIN)}, true, 100), (${m.id}, ${new Date(now - 4 * MIN)}, true, 300),
      (${m.id}, ${new Date(now - 3 * MIN)}, false, 9000), (${m.id}, ${new Date(now - 3 * 1440 * MIN)}, true, 1700)`;
    expect(await read(await badge(m.id, "response-time"))).toMatchObject({
      message: "200 ms",
      color: "#97ca00",
      label: "response time 24h",
    });
    expect(await read(await badge(m.id, "response-time", "?period=7d"))).toMatchObject({ message: "700 ms", color: "#dfb317" });
  });

  it("cert expiry: the latest reading counted down to today; only for checks that record one", async () => {
    const m = await publicMonitor();
    await a.t.sql`update monitors set check_type = 'http' where id = ${m.id}`;
    expect(await read(await badge(m.id, "cert-expiry"))).toMatchObject({ message: "no data", label: "certificate" });
    const now = a.clock.now().getTime();
    await a.t.sql`insert into monitor_samples (monitor_id, ts, avail, cert_days_remaining) values
      (${m.id}, ${new Date(now - 3 * 1440 * MIN)}, true, 90), (${m.id}, ${new Date(now - 2 * 1440 * MIN - MIN)}, true, 12)`;
    expect(await read(await badge(m.id, "cert-expiry"))).toMatchObject({ message: "10 days", color: "#fe7d37" });
    await a.t
      .sql`insert into monitor_samples (monitor_id, ts, avail, cert_days_remaining) values (${m.id}, ${new Date(now - MIN)}, true, ${-1})`;
    expect(await read(await badge(m.id, "cert-expiry"))).toMatchObject({ message: "expired", color: "#e05d44" });
    const tcp = await publicMonitor();
    expect((await badge(tcp.id, "cert-expiry")).status).toBe(404);
  });

  it("answers one 404 body for a private, a missing and a malformed id", async () => {
    const priv = await a.monitor();
    const bodies = new Set<string>();
    for (const id of [priv.id, 987654, "abc", "99999999999", "0"])
      for (const kind of ["status", "uptime", "response-time", "cert-expiry"]) {
        const res = await badge(id, kind);
        expect(res.status).toBe(404);
        bodies.add(await res.text());
      }
    expect(bodies.size).toBe(1);
    expect([...bodies][0]).not.toContain(String(priv.id));
  });

  it("keeps a label as text (escaped, length-limited), empty for none, and the style", async () => {
    const m = await publicMonitor();
    const b = await read(await badge(m.id, "status", `?label=${encodeURIComponent('<script>alert(1)</script>&"')}`));
    expect(b.svg).not.toContain("<script");
    expect(b.svg).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;");
    expect(b.svg).toMatch(/role="img"/);
    expect(b.svg).toContain("<title>&lt;script&gt;");
    expect((await badge(m.id, "status", `?label=${"x".repeat(65)}`)).status).toBe(422);
    const bare = await (await badge(m.id, "status", "?label=")).text();
    expect(bare).toContain("<title>pending</title>");
    const square = await (await badge(m.id, "status", "?style=flat-square")).text();
    expect(square).not.toContain('rx="3"');
    expect(await (await badge(m.id, "status")).text()).toContain('rx="3"');
    expect((await badge(m.id, "status", "?style=plastic")).status).toBe(422);
  });

  it("is cacheable for a minute, with an ETag answering 304, no sniffing and no script", async () => {
    const m = await publicMonitor();
    const res = await badge(m.id, "status");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const again = await badge(m.id, "status", "", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    // A state change is a new badge, so a new ETag.
    await a.t.sql`update monitors set status = 'down' where id = ${m.id}`;
    const changed = await badge(m.id, "status", "", { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });
});
