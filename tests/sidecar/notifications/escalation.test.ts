// Escalation policies and quiet hours in the delivery worker (docs/adr/0448, docs/adr/0450), on a clock
// moved ahead instead of waited for: step 1 pages when nobody acknowledged, not once somebody did, not
// after a recovery; the repeat count; re-notification, paused by an acknowledgement; quiet hours hold a
// warning, pass a critical and its recovery, and send one digest per sink when they end.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runEscalations } from "../../../shared/verbs/notifications/escalations.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { createHarness, type Harness, type Peer, startPeer } from "./support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const MIN = 60_000;
let monitorSeq = 7000;

interface Setup {
  route: { id: number };
  policy: { id: number };
  own: { peer: Peer; id: number };
  steps: { peer: Peer; id: number }[];
}

async function webhook(): Promise<{ peer: Peer; id: number }> {
  const peer = await startPeer();
  const res = await h.req("POST", "notifications/sinks", h.admin, {
    name: `hook-${Math.random()}`,
    provider_type: "webhook",
    provider_config: { url: peer.url },
  });
  expect(res.status).toBe(201);
  return { peer, id: (await res.json()).id };
}

/** A route to its own webhook naming a policy whose steps page further webhooks. */
async function setup(policy: { after: number[]; repeat?: number; renotify?: number | null }): Promise<Setup> {
  const own = await webhook();
  const steps: { peer: Peer; id: number }[] = [];
  for (let i = 0; i < policy.after.length; i++) steps.push(await webhook());
  const p = await h.req("POST", "notifications/escalation-policies", h.admin, {
    name: `policy-${Math.random()}`,
    steps: policy.after.map((after_minutes, i) => ({ after_minutes, sink_ids: [steps[i]!.id] })),
    repeat: policy.repeat ?? 0,
    renotify_every_minutes: policy.renotify ?? null,
  });
  expect(p.status).toBe(201);
  const policyRow = await p.json();
  const r = await h.req("POST", "notifications/routes", h.admin, { sink_id: own.id, escalation_policy_id: policyRow.id });
  expect(r.status).toBe(201);
  return { route: await r.json(), policy: policyRow, own, steps };
}

/** Deletes the route and closes the peers, so a later test's alerts go nowhere near them. */
async function teardown(s: Setup): Promise<void> {
  await h.req("DELETE", `notifications/routes/${s.route.id}`, h.admin);
  await Promise.all([s.own, ...s.steps].map((x) => x.peer.close()));
}

/** Raises a down alert on a fresh monitor and waits until the route's own sink has it: the incident's id. */
async function incident(s: Setup): Promise<number> {
  const monitor_id = ++monitorSeq;
  await h.enqueue({ kind: "monitor.down", monitor_id, title: `monitor ${monitor_id} is down` });
  await h.until(async () => s.own.peer.received.length >= 1, "the first page");
  const [row] = await h.t.sql`select id::int as id from notification_alerts where monitor_id = ${monitor_id} and incident_id = id`;
  return row!.id as number;
}

const titles = (p: Peer) => p.received.map((r) => JSON.parse(r.body).data.title as string);

/** Waits until the worker has handled the escalation's due work (it is due no more, or it ended). */
async function settled(alertId: number): Promise<{ state: string; renotify_count: number }> {
  return h.until(async () => {
    const [row] = await h.t.sql`select state, renotify_count, due_at from notification_escalations where alert_id = ${alertId}`;
    if (!row) return false;
    return (row.state !== "active" || new Date(row.due_at) > h.clock.now()) && (row as { state: string; renotify_count: number });
  }, "the escalation job");
}

describe("escalation", () => {
  it("pages step 1 when the incident is still unacknowledged after its minutes, recorded as step 1", async () => {
    const s = await setup({ after: [5] });
    const alertId = await incident(s);
    await h.advance(4 * MIN);
    await settled(alertId);
    expect(s.steps[0]!.peer.received).toHaveLength(0);
    await h.advance(MIN + 1000);
    await h.until(async () => s.steps[0]!.peer.received.length === 1, "step 1");
    expect(titles(s.steps[0]!.peer)).toEqual([`[Escalation step 1] monitor ${monitorSeq} is down`]);
    const list = await (await h.req("GET", `notifications/deliveries?alert_id=${alertId}`, h.admin)).json();
    const steps = list.items.map((d: { sink_id: number; escalation_step: number; escalation_round: number }) => [
      d.sink_id,
      d.escalation_step,
      d.escalation_round,
    ]);
    expect(steps).toContainEqual([s.own.id, 0, 0]);
    expect(steps).toContainEqual([s.steps[0]!.id, 1, 0]);
    expect((await settled(alertId)).state).toBe("done");
    await teardown(s);
  });

  it("does not page once the incident is acknowledged", async () => {
    const s = await setup({ after: [5] });
    const alertId = await incident(s);
    await h.t.sql`update notification_alerts set acknowledged_at = now(), acknowledged_by = 'tests' where id = ${alertId}`;
    await h.advance(5 * MIN + 1000);
    expect((await settled(alertId)).state).toBe("acknowledged");
    expect(s.steps[0]!.peer.received).toHaveLength(0);
    await teardown(s);
  });

  it("a recovery ends the escalation", async () => {
    const s = await setup({ after: [5] });
    const alertId = await incident(s);
    await h.enqueue({ kind: "monitor.up", severity: "info", monitor_id: monitorSeq, title: "up again" });
    await h.until(async () => s.own.peer.received.length === 2, "the recovery");
    await h.advance(5 * MIN + 1000);
    expect((await settled(alertId)).state).toBe("resolved");
    expect(s.steps[0]!.peer.received).toHaveLength(0);
    await teardown(s);
  });

  it("runs the whole sequence `repeat` more times, then stops", async () => {
    const s = await setup({ after: [5, 5], repeat: 1 });
    const alertId = await incident(s);
    const [b, c] = [s.steps[0]!.peer, s.steps[1]!.peer];
    // Each jump makes exactly one step due: B, C, then B and C again on the second pass.
    const after: [number, number][] = [
      [1, 0],
      [1, 1],
      [2, 1],
      [2, 2],
    ];
    for (const [nb, nc] of after) {
      await h.advance(5 * MIN + 1000);
      await h.until(async () => b.received.length === nb && c.received.length === nc, `${nb} pages to B and ${nc} to C`);
    }
    expect(titles(b)[1]).toMatch(/^\[Escalation step 1, pass 2\]/);
    expect(titles(c)[1]).toMatch(/^\[Escalation step 2, pass 2\]/);
    await h.advance(5 * MIN + 1000);
    expect((await settled(alertId)).state).toBe("done");
    expect([b.received.length, c.received.length]).toEqual([2, 2]);
    const rows = await h.t.sql`select escalation_step as step, escalation_round as round from notification_deliveries
      where alert_id = ${alertId} and escalation_step > 0 order by escalation_round, escalation_step`;
    expect(rows.map((r) => [r.step, r.round])).toEqual([
      [1, 0],
      [2, 0],
      [1, 1],
      [2, 1],
    ]);
    await teardown(s);
  });

  it("re-notifies the route's own sink every N minutes until acknowledged", async () => {
    const s = await setup({ after: [600], renotify: 10 });
    const alertId = await incident(s);
    for (const n of [2, 3]) {
      await h.advance(10 * MIN + 1000);
      await h.until(async () => s.own.peer.received.length === n, `reminder ${n - 1}`);
    }
    expect(titles(s.own.peer).slice(1)).toEqual([
      `[Reminder 1] monitor ${monitorSeq} is down`,
      `[Reminder 2] monitor ${monitorSeq} is down`,
    ]);
    await h.t.sql`update notification_alerts set acknowledged_at = now() where id = ${alertId}`;
    await h.advance(10 * MIN + 1000);
    const after = await settled(alertId);
    // Paused, not ended: an un-acknowledge would resume it.
    expect(after).toMatchObject({ state: "active", renotify_count: 2 });
    expect(s.own.peer.received).toHaveLength(3);
    await teardown(s);
  });
  it("two sidecars walking the same escalation at once send its step once (SKIP LOCKED)", async () => {
    const s = await setup({ after: [5] });
    const alertId = await incident(s);
    // Both ahead of the worker's clock: only these two see the step due.
    const ahead = { now: () => new Date(h.clock.now().getTime() + 6 * MIN) };
    const ctx = () => systemContext({ db: h.t.runtime.database.db, clock: ahead, random: h.t.runtime.deps.random });
    const [one, two] = await Promise.all([
      runEscalations({ ctx: ctx(), input: { maxAttempts: 3 } }),
      runEscalations({ ctx: ctx(), input: { maxAttempts: 3 } }),
    ]);
    expect(one.deliveries + two.deliveries).toBe(1);
    // The step's delivery is due from their time: the worker's clock catches up to send it.
    await h.advance(6 * MIN + 1000);
    await h.until(async () => s.steps[0]!.peer.received.length === 1, "step 1");
    const rows = await h.t.sql`select count(*)::int as n from notification_deliveries where alert_id = ${alertId} and escalation_step = 1`;
    expect(rows[0]!.n).toBe(1);
    await teardown(s);
  });
});

describe("quiet hours", () => {
  const hhmm = (d: Date) => d.toISOString().slice(11, 16);

  it("hold a warning, pass a critical, and send one digest per sink when they end", async () => {
    const own = await webhook();
    const now = h.clock.now();
    const quiet = {
      timezone: "UTC",
      windows: [
        {
          days: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"],
          start: hhmm(new Date(now.getTime() - 60 * MIN)),
          end: hhmm(new Date(now.getTime() + 60 * MIN)),
        },
      ],
      hold_below: "critical",
    };
    const r = await h.req("POST", "notifications/routes", h.admin, { sink_id: own.id, quiet_hours: quiet });
    expect(r.status).toBe(201);
    const [m1, m2, m3] = [++monitorSeq, ++monitorSeq, ++monitorSeq];
    await h.enqueue(
      { kind: "monitor.degraded", severity: "warning", monitor_id: m1, title: "m1 is degraded" },
      { kind: "monitor.degraded", severity: "warning", monitor_id: m2, title: "m2 is degraded" },
      { kind: "monitor.down", severity: "critical", monitor_id: m3, title: "m3 is down" },
    );
    await h.until(async () => own.peer.received.length === 1, "the critical alert");
    expect(titles(own.peer)).toEqual(["m3 is down"]);
    // The critical page went out: its recovery (info) follows it at once, so the page is resolved.
    await h.enqueue({ kind: "monitor.up", severity: "info", monitor_id: m3, title: "m3 is up again" });
    await h.until(async () => own.peer.received.length === 2, "the critical alert's recovery");
    await h.enqueue({ kind: "monitor.up", severity: "info", monitor_id: m1, title: "m1 is up again" });
    const held = await h.until(async () => {
      const list = (await (await h.req("GET", `notifications/deliveries?sink_id=${own.id}&state=held`, h.admin)).json()).items;
      return list.length === 3 && list;
    }, "three held deliveries");
    const end = Date.parse(held[0].held_until);
    expect(end).toBeGreaterThan(now.getTime());
    expect(end).toBeLessThanOrEqual(now.getTime() + 61 * MIN);

    await h.advance(61 * MIN);
    await h.until(async () => own.peer.received.length === 3, "the digest");
    const digest = JSON.parse(own.peer.received[2]!.body).data;
    expect(digest.title).toBe("2 alerts held during quiet hours, 1 recovered, 1 still open");
    expect(digest.message).toContain("[recovered] m1 is degraded");
    expect(digest.message).toContain("[still open] m2 is degraded");
    expect(digest.message).not.toContain("m1 is up again");
    // The receiver answers before the worker records the attempt: wait for the record, then compare.
    const states = async () =>
      (
        await h.t.sql`select state, count(*)::int as n from notification_deliveries where sink_id = ${own.id} group by state order by state`
      ).map((x) => [x.state, x.n]);
    await h.until(async () => (await states()).every(([state]) => state !== "pending"), "the digest's attempt recorded");
    expect(await states()).toEqual([
      ["delivered", 3],
      ["digested", 3],
    ]);
    // Nothing more: the digest went out once.
    await h.advance(MIN);
    await h.worker.kick();
    expect(own.peer.received).toHaveLength(3);
    await own.peer.close();
  });
});
