// Issue 31: the public status page and its JSON twin, with 50 items and 90 days of history, served from
// the page cache (docs/adr/0459) at >= 3,000 requests/s with p99 < 50 ms at 64 connections (wrk), and a
// monitor state change visible within 2 s: recorded the way record-results.ts does (the row and
// NOTIFY `monitors` in one transaction), timed to the page's `change` event and to the page showing it.
import { api, type BenchContext, type BenchRow } from "./harness.ts";
import { WRK_MISSING, wrk, wrkInstalled } from "./wrk.ts";

const ITEMS = 50;
const SECONDS = 10;
const CONNECTIONS = 64;

async function seedPage(ctx: BenchContext): Promise<{ slug: string; monitorIds: number[] }> {
  const monitorIds: number[] = [];
  for (let i = 0; i < ITEMS; i++) {
    // Heartbeat monitors an hour apart: the server's runner never checks them during the run.
    const m = (await api(ctx, "POST", "/api/v1/monitors", { name: `status bench ${i}`, check_type: "push", interval_secs: 3600 })) as {
      id: number;
    };
    if (typeof m.id !== "number") throw new Error(`monitor: ${JSON.stringify(m).slice(0, 200)}`);
    monitorIds.push(m.id);
  }
  // Shown as up, with 90 days of daily rows and 24 hours of minute buckets.
  await ctx.sql`update monitors set status = 'up' where id = any(${monitorIds})`;
  await ctx.sql`
    insert into monitor_uptime_daily (monitor_id, day, up, total, minutes)
    select m, (current_date - d)::date, 1440 - (m + d) % 7, 1440, 1440
    from unnest(${monitorIds}::int[]) as m, generate_series(1, 90) as d
    on conflict do nothing`;
  await ctx.sql`
    insert into monitor_uptime_minutes (monitor_id, minute, up, total)
    select m, date_trunc('minute', now()) - make_interval(mins => k), 1 - (k % 97 = 0)::int, 1
    from unnest(${monitorIds}::int[]) as m, generate_series(0, 1439) as k
    on conflict do nothing`;
  const slug = "bench-status";
  await api(ctx, "POST", "/api/v1/status-pages", {
    slug,
    title: "Bench status",
    published: true,
    sections: Array.from({ length: 5 }, (_, s) => ({
      name: `Section ${s + 1}`,
      items: monitorIds
        .slice(s * 10, s * 10 + 10)
        .map((id, k) => ({ kind: "monitor", monitor_id: id, public_name: `Service ${s * 10 + k + 1}` })),
    })),
  });
  return { slug, monitorIds };
}

/** Reads the page's event stream until `event` (30 s at most); resolves with the time it arrived. */
async function openEvents(url: string) {
  const ctl = new AbortController();
  const res = await fetch(url, { signal: ctl.signal });
  if (res.status !== 200) throw new Error(`events: ${res.status}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  return {
    async until(event: string): Promise<number> {
      const deadline = performance.now() + 30_000;
      while (!text.includes(`event: ${event}\n`)) {
        if (performance.now() > deadline) throw new Error(`no ${event} event in 30 s`);
        const chunk = await reader.read();
        if (chunk.done) throw new Error("the event stream ended");
        text += decoder.decode(chunk.value, { stream: true });
      }
      const at = performance.now();
      text = text.slice(text.indexOf(`event: ${event}\n`) + event.length + 8);
      return at;
    },
    close: () => ctl.abort(),
  };
}

/** One state change of `monitorId` to `status`, timed to the `change` event and to the page saying `expect`. */
async function stateChange(
  ctx: BenchContext,
  pageUrl: string,
  events: Awaited<ReturnType<typeof openEvents>>,
  monitorId: number,
  status: string,
  expect: string,
) {
  const t0 = performance.now();
  await ctx.sql.begin(async (tx) => {
    await tx`update monitors set status = ${status}, last_status_change_at = now() where id = ${monitorId}`;
    await tx`select pg_notify('monitors', ${JSON.stringify({ type: "status", monitor_id: monitorId, status })})`;
  });
  const eventAt = await events.until("change");
  for (;;) {
    const html = await (await fetch(pageUrl)).text();
    if (html.includes(expect)) return { event: eventAt - t0, page: performance.now() - t0 };
    if (performance.now() - t0 > 30_000) throw new Error("the page did not show the change in 30 s");
  }
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const { slug, monitorIds } = await seedPage(ctx);
  const pageUrl = `${ctx.baseUrl}/status/${slug}`;
  const jsonUrl = `${ctx.baseUrl}/api/v1/status-pages/${slug}/summary`;
  const rows: BenchRow[] = [];
  // The first build, uncached: what every miss costs.
  const t0 = performance.now();
  const first = await fetch(pageUrl);
  const html = await first.text();
  const build = performance.now() - t0;
  rows.push({
    name: `page build on a miss (${ITEMS} items, 90 days)`,
    total_ms: Math.round(build),
    note: `${Math.round(html.length / 1024)} KiB HTML`,
  });
  if (!wrkInstalled()) rows.push({ name: "page and JSON under load", note: WRK_MISSING });
  else
    for (const [name, url, gzip] of [
      ["GET /status/{slug} (HTML, gzip)", pageUrl, true],
      ["GET /api/v1/status-pages/{slug}/summary (JSON, gzip)", jsonUrl, true],
      ["GET /status/{slug} (HTML, uncompressed)", pageUrl, false],
    ] as const) {
      // As browsers and proxies ask (Accept-Encoding: gzip): the cache holds the gzipped bytes too.
      const headers = gzip ? { "Accept-Encoding": "gzip" } : undefined;
      const r = await wrk({ url, connections: CONNECTIONS, threads: 2, seconds: SECONDS, script: null, ...(headers ? { headers } : {}) });
      rows.push({
        name,
        p50_ms: Math.round(r.p50_ms * 100) / 100,
        p99_ms: Math.round(r.p99_ms * 100) / 100,
        rps: Math.round(r.rps),
        note: `wrk ${CONNECTIONS} connections ${SECONDS} s, ${Math.round(r.bytesPerAnswer / 1024)} KiB/answer, non-2xx ${r.non2xx}, socket errors ${r.socketErrors}; target >= 3000 req/s, p99 < 50 ms`,
      });
    }
  try {
    rows.push(...(await stateChanges(ctx, pageUrl, monitorIds)));
  } catch (e) {
    rows.push({ name: "state change -> SSE change event / page", note: `FAILED: ${(e as Error).message}` });
  }
  return rows;
}

/** Down then up again, five times, each timed to its event and to the page showing it. */
async function stateChanges(ctx: BenchContext, pageUrl: string, monitorIds: number[]): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const events = await openEvents(`${pageUrl}/events`);
  await events.until("ready");
  const toEvent: number[] = [];
  const toPage: number[] = [];
  try {
    for (let i = 0; i < 10; i++) {
      const down = i % 2 === 0;
      const t = await stateChange(
        ctx,
        pageUrl,
        events,
        monitorIds[Math.floor(i / 2)]!,
        down ? "down" : "up",
        down ? "Some systems are degraded" : "All systems operational",
      );
      toEvent.push(t.event);
      toPage.push(t.page);
    }
  } finally {
    events.close();
  }
  const max = (xs: number[]) => Math.round(Math.max(...xs));
  const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);
  rows.push({
    name: "state change -> SSE change event",
    p50_ms: median(toEvent),
    p99_ms: max(toEvent),
    note: "10 changes (UPDATE + NOTIFY monitors); p99 column: the worst; target < 2000 ms",
  });
  rows.push({
    name: "state change -> page shows it",
    p50_ms: median(toPage),
    p99_ms: max(toPage),
    note: "10 changes; until GET /status/{slug} has the new banner; target < 2000 ms",
  });
  return rows;
}
