// Heartbeat (push) monitors (issue 29 item 1, docs/adr/0439): the token shown once and stored hashed,
// pushes by GET and POST (query, JSON, form), down at once with an alert, exit codes, the 422s and
// 404s, the per-token 429, rotation, pause, and absence found by the sweep on a driven clock: an
// interval with its grace, and a cron schedule in a time zone with its tolerance.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { sweepPushDeadlines } from "../../../shared/verbs/monitors/push/sweep-deadlines.ts";
import { pushTokenHash } from "../../../shared/verbs/monitors/push/token.ts";
import { PUSHES_PER_MINUTE } from "../../../shared/verbs/monitors/push/record-pushes.ts";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

let n = 0;
async function pushMonitor(body: Record<string, unknown> = {}): Promise<{ id: number; token: string; created: Record<string, any> }> {
  const res = await a.req("POST", "monitors", a.admin, { name: `push-${++n}`, check_type: "push", ...body });
  const created = await res.json();
  expect(res.status, JSON.stringify(created)).toBe(201);
  return { id: created.id, token: created.push_token, created };
}

const push = (token: string, query = "", init: { method?: string; body?: string; type?: string } = {}) =>
  a.t.app.request(`/api/v1/push/${token}${query}`, {
    method: init.method ?? "GET",
    ...(init.body !== undefined ? { body: init.body, headers: { "content-type": init.type ?? "application/json" } } : {}),
  });

const row = async (id: number) => {
  const [m] = await a.t.sql<
    { status: string; next_check_at: Date; last_msg: string | null; last_latency_ms: number | null; push_token_hash: string | null }[]
  >`
    select status, next_check_at, last_msg, last_latency_ms, push_token_hash from monitors where id = ${id}`;
  return m!;
};
const samples = (id: number) =>
  a.t.sql<{ avail: boolean; msg: string; latency_ms: number | null; extra: Record<string, number> | null; source: string }[]>`
    select avail, msg, latency_ms, extra, source from monitor_samples where monitor_id = ${id} order by ts, msg`;
const alerts = (id: number) => a.t.sql<{ kind: string }[]>`select kind from notification_alerts where monitor_id = ${id} order by id`;
const sweep = () =>
  sweepPushDeadlines({
    ctx: systemContext({ db: a.t.runtime.database.db, clock: a.clock, random: a.t.runtime.deps.random }),
    input: { limit: 100 },
  });

describe("push monitors: create and read", () => {
  it("answers the token and URL once, stores only its hash, and never shows it on reads", async () => {
    const { id, token, created } = await pushMonitor({ interval_secs: 300 });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ check_type: "push", host: "", status: "pending", push_token_set: true });
    expect(created.push_url).toMatch(new RegExp(`/api/v1/push/${token}$`));
    // The first deadline: one interval plus the default grace (60 s) from now.
    expect(created.next_check_at).toBe(new Date(a.clock.now().getTime() + 360_000).toISOString());
    expect((await row(id)).push_token_hash).toBe(pushTokenHash(token));
    const read = await (await a.req("GET", `monitors/${id}`, a.viewer)).json();
    expect(read.push_token_set).toBe(true);
    expect(JSON.stringify(read)).not.toContain(token);
    const list = await (await a.req("GET", "monitors?check_type=push", a.viewer)).text();
    expect(list).not.toContain(token);
    const [audit] = await a.t.sql<
      { diff: unknown }[]
    >`select diff from audit_log where action = 'monitors.create' and entity_id = ${String(id)} order by id desc limit 1`;
    expect(JSON.stringify(audit?.diff)).not.toContain(token);
    expect(JSON.stringify(audit?.diff)).not.toContain(pushTokenHash(token));
    // A probed monitor's answer carries none of it.
    const tcp = await a.monitor();
    expect(tcp).not.toHaveProperty("push_token");
    expect(tcp).not.toHaveProperty("push_token_set");
  });

  it("refuses a host, an unknown key, a bad time zone and a cron that never fires (422 naming the field, nothing stored)", async () => {
    const before = (await a.t.sql`select count(*)::int as n from monitors`)[0]!.n;
    const cases: [Record<string, unknown>, string[]][] = [
      [{ host: "example.com" }, ["body", "host"]],
      [{ config: { expect: "cron" } }, ["body", "config", "cron"]],
      [{ config: { expect: "cron", cron: "0 0 30 2 *" } }, ["body", "config", "cron"]],
      [{ config: { expect: "cron", cron: "not a schedule" } }, ["body", "config", "cron"]],
      [{ config: { expect: "cron", cron: "0 2 * * *", timezone: "Mars/Olympus" } }, ["body", "config", "timezone"]],
      [{ config: { grace_secs: -1 } }, ["body", "config", "grace_secs"]],
      [{ config: { url: "http://x" } }, ["body", "config", "url"]],
    ];
    for (const [body, loc] of cases) {
      const res = await a.req("POST", "monitors", a.admin, { name: "bad-push", check_type: "push", ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      const detail = (await res.json()).detail as { loc: string[]; msg: string }[];
      expect(detail.map((d) => d.loc)).toContainEqual(loc);
    }
    const never = await a.req("POST", "monitors", a.admin, {
      name: "bad-push",
      check_type: "push",
      config: { expect: "cron", cron: "0 0 30 2 *" },
    });
    expect((await never.json()).detail[0].msg).toBe("This schedule never fires.");
    expect((await a.t.sql`select count(*)::int as n from monitors`)[0]!.n).toBe(before);
  });

  it("check now is refused for a push monitor (nothing probes it)", async () => {
    const { id } = await pushMonitor();
    const res = await a.req("POST", `monitors/${id}/check`, a.admin);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ reason: "not_probed" });
  });
});

describe("pushes", () => {
  it("GET and POST up record a result through the monitor's state, and move the deadline", async () => {
    const { id, token } = await pushMonitor({ interval_secs: 60, config: { grace_secs: 30 } });
    const res = await push(token, "?status=up&msg=OK&ping=");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, recorded: true });
    let m = await row(id);
    expect(m.status).toBe("up");
    expect(m.next_check_at.toISOString()).toBe(new Date(a.clock.now().getTime() + 90_000).toISOString());

    a.clock.advance(10_000);
    const post = await push(token, "", { method: "POST", body: JSON.stringify({ msg: "backup done", ping: 12.5 }) });
    expect(post.status).toBe(200);
    const form = await push(token, "?msg=from-query", {
      method: "POST",
      body: "msg=from-form&ping=7",
      type: "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(200);
    const bare = await push(token, "", { method: "POST" });
    expect(bare.status).toBe(200);
    m = await row(id);
    expect(m.status).toBe("up");
    expect(m.next_check_at.toISOString()).toBe(new Date(a.clock.now().getTime() + 90_000).toISOString());
    const s = await samples(id);
    expect(s.map((x) => [x.avail, x.msg, x.latency_ms, x.source])).toEqual([
      [true, "OK", null, "push"],
      [true, "OK", null, "push"],
      [true, "backup done", 12.5, "push"],
      [true, "from-form", 7, "push"],
    ]);
    const [bucket] = await a.t.sql<
      { up: number; total: number }[]
    >`select sum(up)::int as up, sum(total)::int as total from monitor_uptime_minutes where monitor_id = ${id}`;
    expect(bucket).toEqual({ up: 4, total: 4 });
  });

  it("status=down with a message marks the monitor down at once (retries or not) and raises the alert", async () => {
    const { id, token } = await pushMonitor({ max_retries: 3 });
    expect((await push(token)).status).toBe(200);
    const res = await push(token, `?status=down&msg=${encodeURIComponent("disk full")}`);
    expect(res.status).toBe(200);
    const m = await row(id);
    expect(m).toMatchObject({ status: "down", last_msg: "disk full" });
    expect((await alerts(id)).map((x) => x.kind)).toEqual(["monitor.down"]);
    const events = await (await a.req("GET", `monitors/${id}/events`, a.viewer)).json();
    expect(events.items[0]).toMatchObject({ event_type: "down", status_from: "up", status_to: "down", msg: "disk full" });
    // And up again: the recovery alert.
    expect((await push(token, "?status=up")).status).toBe(200);
    expect((await alerts(id)).map((x) => x.kind)).toEqual(["monitor.down", "monitor.up"]);
  });

  it("an exit code other than 0 is down unless a status is given; 0 is up", async () => {
    const { id, token } = await pushMonitor();
    expect((await push(token, "?exit_code=0")).status).toBe(200);
    expect((await row(id)).status).toBe("up");
    expect((await push(token, "?exit_code=2")).status).toBe(200);
    expect(await row(id)).toMatchObject({ status: "down", last_msg: "exit code 2" });
    expect((await push(token, "?exit_code=1&status=up&msg=warnings only")).status).toBe(200);
    expect((await row(id)).status).toBe("up");
    const s = await samples(id);
    expect(s.map((x) => x.extra?.exit_code)).toEqual([0, 2, 1]);
  });

  it("a bad status, ping or exit code is a 422 in the envelope, and nothing is recorded", async () => {
    const { id, token } = await pushMonitor();
    for (const [query, field] of [
      ["?status=maybe", "status"],
      ["?ping=-1", "ping"],
      ["?ping=fast", "ping"],
      ["?exit_code=1.5", "exit_code"],
      ["?exit_code=abc", "exit_code"],
      [`?msg=${"x".repeat(1001)}`, "msg"],
    ] as const) {
      const res = await push(token, query);
      expect(res.status, query).toBe(422);
      const body = await res.json();
      expect(body.detail.map((d: { loc: string[] }) => d.loc)).toContainEqual(["query", field]);
    }
    const json = await push(token, "", { method: "POST", body: JSON.stringify({ ping: "-3" }) });
    expect(json.status).toBe(422);
    expect((await json.json()).detail[0].loc).toEqual(["body", "ping"]);
    expect(await samples(id)).toEqual([]);
    expect((await row(id)).status).toBe("pending");
  });

  it("an unknown, malformed or rotated token is one generic 404; rotation answers the new token once", async () => {
    const { id, token } = await pushMonitor();
    const unknown = await push("A".repeat(43));
    expect(unknown.status).toBe(404);
    const body = await unknown.json();
    expect(JSON.stringify(body)).not.toMatch(/monitor \d|push-\d/i);
    expect(body.detail).toBe("Unknown push token.");
    expect((await push("short")).status).toBe(404);

    expect((await a.req("POST", `monitors/${id}/push-token`, a.viewer)).status).toBe(403);
    const rotated = await a.req("POST", `monitors/${id}/push-token`, a.admin);
    expect(rotated.status).toBe(200);
    const issued = await rotated.json();
    expect(issued.monitor_id).toBe(id);
    expect(issued.push_token).not.toBe(token);
    expect(issued.push_url).toMatch(new RegExp(`/api/v1/push/${issued.push_token}$`));
    const old = await push(token);
    expect(old.status).toBe(404);
    expect(await old.json()).toEqual(body);
    expect((await push(issued.push_token)).status).toBe(200);
    const [audit] = await a.t.sql<
      { diff: unknown }[]
    >`select diff from audit_log where action = 'monitors.push_token_rotate' and entity_id = ${String(id)}`;
    expect(audit).toBeDefined();
    expect(JSON.stringify(audit!.diff)).not.toContain(issued.push_token);
    // Only push monitors have one.
    const tcp = await a.monitor();
    const refused = await a.req("POST", `monitors/${tcp.id}/push-token`, a.admin);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ reason: "not_push_monitor" });
    expect((await a.req("POST", "monitors/987654/push-token", a.admin)).status).toBe(404);
  });

  it("a paused monitor's push is accepted and not recorded", async () => {
    const { id, token } = await pushMonitor();
    expect((await a.req("POST", `monitors/${id}/pause`, a.admin)).status).toBe(200);
    const res = await push(token, "?status=down");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, recorded: false });
    expect(await samples(id)).toEqual([]);
  });

  it("more than the per-token limit in a minute answers 429 with Retry-After in the envelope; other tokens go on", async () => {
    const { token } = await pushMonitor();
    const other = await pushMonitor();
    for (let i = 0; i < PUSHES_PER_MINUTE; i++) expect((await push(token)).status, `push ${i}`).toBe(200);
    const limited = await push(token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(await limited.json()).toMatchObject({ retry_after: expect.any(Number) });
    expect((await push(other.token)).status).toBe(200);
    // The minute counts from the first push (the driven clock does not move here): a new one after it.
    a.clock.advance(60_000);
    expect((await push(token)).status).toBe(200);
  }, 30_000);
});

describe("concurrent pushes (docs/adr/0453: several batches in flight)", () => {
  it("many pushes at once to the same and different monitors are each committed exactly once, none failing", async () => {
    const monitors = await Promise.all(Array.from({ length: 6 }, () => pushMonitor()));
    const perMonitor = 25;
    const sent = monitors.flatMap((m, i) => Array.from({ length: perMonitor }, (_, j) => ({ m, msg: `m${i}-p${j}` })));
    // Interleaved, so pushes to one monitor arrive while batches holding it are in flight.
    sent.sort((x, y) => Number(x.msg.split("-p")[1]) - Number(y.msg.split("-p")[1]));
    const answers = await Promise.all(sent.map((p) => push(p.m.token, `?msg=${p.msg}`)));
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(answers.map((r, i) => `${r.status} ${bodies[i]}`).filter((x) => !x.startsWith("200"))).toEqual([]);
    for (const [i, m] of monitors.entries()) {
      const msgs = (await samples(m.id)).map((x) => x.msg).sort();
      expect(msgs).toEqual(Array.from({ length: perMonitor }, (_, j) => `m${i}-p${j}`).sort());
      const [w] = await a.t.sql<{ hits: number; total: number }[]>`
        select m.push_window_hits as hits, (select sum(total)::int from monitor_uptime_minutes where monitor_id = m.id) as total
        from monitors m where m.id = ${m.id}`;
      expect(w).toEqual({ hits: perMonitor, total: perMonitor });
    }
  }, 60_000);

  it("pushes at once past the per-token limit: exactly the limit recorded, the rest 429", async () => {
    const { id, token } = await pushMonitor();
    const answers = await Promise.all(Array.from({ length: PUSHES_PER_MINUTE + 15 }, (_, i) => push(token, `?msg=c${i}`)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(PUSHES_PER_MINUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect(await samples(id)).toHaveLength(PUSHES_PER_MINUTE);
  }, 60_000);
});

describe("absence", () => {
  it("an interval monitor goes down once its interval and grace pass without a push, and recovers on the next push", async () => {
    const { id, token } = await pushMonitor({ interval_secs: 120, config: { grace_secs: 30 } });
    expect((await push(token)).status).toBe(200);
    const pushedAt = a.clock.now().toISOString();
    a.clock.advance(149_000);
    await sweep();
    expect((await row(id)).status).toBe("up");
    a.clock.advance(1_000);
    await sweep();
    const m = await row(id);
    expect(m.status).toBe("down");
    expect(m.last_msg).toBe(`No push since ${pushedAt}, expected by ${a.clock.now().toISOString()}.`);
    expect(m.next_check_at.toISOString()).toBe(new Date(a.clock.now().getTime() + 150_000).toISOString());
    expect((await alerts(id)).map((x) => x.kind)).toEqual(["monitor.down"]);
    // Nothing more until the next deadline; then a silent down result (still down, no new alert).
    await sweep();
    a.clock.advance(150_000);
    await sweep();
    expect((await alerts(id)).length).toBe(1);
    expect((await samples(id)).filter((s) => !s.avail).length).toBe(2);
    expect((await push(token)).status).toBe(200);
    expect((await row(id)).status).toBe("up");
    expect((await alerts(id)).map((x) => x.kind)).toEqual(["monitor.down", "monitor.up"]);
  });

  it("with retries, a missed deadline is pending first and down after the retries", async () => {
    const { id } = await pushMonitor({ interval_secs: 60, max_retries: 1, retry_interval_secs: 30, config: { grace_secs: 0 } });
    a.clock.advance(60_000);
    await sweep();
    expect((await row(id)).status).toBe("pending");
    a.clock.advance(30_000);
    await sweep();
    expect((await row(id)).status).toBe("down");
  });

  it("resume and a changed expectation count the deadline from now", async () => {
    const { id } = await pushMonitor({ interval_secs: 600 });
    await a.req("POST", `monitors/${id}/pause`, a.admin);
    a.clock.advance(3_600_000);
    const resumed = await (await a.req("POST", `monitors/${id}/resume`, a.admin)).json();
    expect(resumed.next_check_at).toBe(new Date(a.clock.now().getTime() + 660_000).toISOString());
    const read = await a.req("GET", `monitors/${id}`, a.admin);
    const patched = await a.req(
      "PATCH",
      `monitors/${id}`,
      a.admin,
      { config: { grace_secs: 0 }, push_url: "sent back, ignored" },
      { "if-match": read.headers.get("etag")! },
    );
    expect(patched.status).toBe(200);
    expect((await patched.json()).next_check_at).toBe(new Date(a.clock.now().getTime() + 600_000).toISOString());
    await sweep();
    expect((await row(id)).status).toBe("pending");
  });

  it("a cron expectation is judged on its schedule in the monitor's time zone, within its tolerance", async () => {
    // Last in the file: the clock jumps ahead (sessions made at the start expire). 2026-11-29 is winter:
    // Europe/Berlin is UTC+1, so 02:00 there is 01:00Z.
    a.clock.at = new Date("2026-11-29T12:00:00Z");
    const { id, token, created } = await pushMonitor({
      config: { expect: "cron", cron: "0 2 * * *", tolerance_secs: 1800, timezone: "Europe/Berlin" },
    });
    expect(created.next_check_at).toBe("2026-11-30T01:30:00.000Z");
    // The job runs at 02:00 Berlin and reports at 02:10: the next deadline is the day after, 02:30 Berlin.
    a.clock.at = new Date("2026-11-30T01:10:00Z");
    expect((await push(token, "?msg=backup+ok")).status).toBe(200);
    expect((await row(id)).next_check_at.toISOString()).toBe("2026-12-01T01:30:00.000Z");
    // A run a little early (01:50 Berlin, within the tolerance) answers that night's occurrence.
    a.clock.at = new Date("2026-12-01T00:50:00Z");
    expect((await push(token)).status).toBe(200);
    expect((await row(id)).next_check_at.toISOString()).toBe("2026-12-02T01:30:00.000Z");
    // The next night nothing comes: still up at 02:29 Berlin, down at 02:30.
    a.clock.at = new Date("2026-12-02T01:29:00Z");
    await sweep();
    expect((await row(id)).status).toBe("up");
    a.clock.at = new Date("2026-12-02T01:30:00Z");
    await sweep();
    const m = await row(id);
    expect(m.status).toBe("down");
    expect(m.last_msg).toBe("No push since 2026-12-01T00:50:00.000Z, expected by 2026-12-02T01:30:00.000Z.");
    expect(m.next_check_at.toISOString()).toBe("2026-12-03T01:30:00.000Z");
    // In summer Berlin is UTC+2: the same schedule's deadline moves with it.
    a.clock.at = new Date("2027-07-01T12:00:00Z");
    expect((await push(token)).status).toBe(200);
    expect((await row(id)).next_check_at.toISOString()).toBe("2027-07-02T00:30:00.000Z");
  });
});
