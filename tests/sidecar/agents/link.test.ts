// The agent sockets end to end with a raw client: enroll -> approve -> link -> heartbeat/telemetry ->
// acknowledgement -> probe -> revoke, across two sidecars on one database (an approval or a revoke made
// through either reaches the agent on the other), and the drain.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approveAgent } from "../../../shared/verbs/agents/approve-agent.ts";
import { revokeAgent } from "../../../shared/verbs/agents/revoke-agent.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { type Sidecar, serverPublicKey, sqlClient, startSidecar, until } from "./harness.ts";
import { RawAgent } from "./raw-client.ts";

let tdb: TestDatabase;
let a: Sidecar;
let b: Sidecar;
let sql: ReturnType<typeof sqlClient>;
let serverPk = "";
const agents: RawAgent[] = [];

const raw = (s: Sidecar, path: "enroll" | "link", key?: RawAgent["key"]) => {
  const agent = new RawAgent(`${s.ws}/api/v1/agents/${path}`, key);
  agents.push(agent);
  return agent;
};
const sampleId = () => randomBytes(16).toString("hex");
const telemetry = (id = sampleId()) => ({
  schema: 1,
  sample_id: id,
  status: "healthy",
  summary: {
    cpu_pct: 12.5,
    mem_pct: 40,
    swap_pct: 0,
    root_disk_pct: 55,
    net_rx_bps: 1000,
    net_tx_bps: 2000,
    max_temp_c: null,
    load_1: 0.5,
    uptime_s: 3600,
  },
  filesystems: [],
  disks: [],
  interfaces: [],
  temperatures: [],
});

/** Enrolls on `via`, approves through `approver`'s verbs (creating a node), answers the agent's key. */
async function enrolledAgent(via: Sidecar, approver: Sidecar): Promise<{ key: RawAgent["key"]; id: number }> {
  const e = raw(via, "enroll");
  await e.handshake(serverPk);
  e.hello();
  const ack = await e.next("hello.ack");
  const id = ack.payload.agent_id as number;
  await approveAgent({ ctx: approver.ctx, input: { id, host_link_action: "create" } });
  expect((await e.next("hello.ack")).payload).toMatchObject({ agent_id: id, status: "active" });
  expect((await e.closed).code).toBe(1000);
  return { key: e.key, id };
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  a = await startSidecar(tdb.url, { instanceId: "sidecar-a" });
  b = await startSidecar(tdb.url, { instanceId: "sidecar-b" });
  sql = sqlClient(tdb.url);
  serverPk = await serverPublicKey(a);
}, 30_000);

afterAll(async () => {
  for (const x of agents) x.close();
  await sql?.end({ timeout: 1 });
  await a?.stop();
  await b?.stop();
  await tdb?.drop();
});

describe("enrollment", () => {
  it("holds a pending agent with a pairing code until an approval on the other sidecar", async () => {
    const e = raw(b, "enroll");
    await e.handshake(serverPk);
    e.hello();
    const ack = await e.next("hello.ack");
    expect(ack.payload).toMatchObject({
      agent_id: expect.any(Number),
      pairing_code: expect.stringMatching(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/),
    });
    expect(ack.payload.magic_link).toBe(`/agents/enroll?c=${ack.payload.pairing_code}`);
    const id = ack.payload.agent_id as number;
    const [row] = await sql`select status, pairing_code_hash, fingerprint from agents where id = ${id}`;
    expect(row).toMatchObject({ status: "pending" });
    expect(row!.pairing_code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(ack.payload.pairing_code as string);
    await approveAgent({ ctx: a.ctx, input: { id } });
    expect((await e.next("hello.ack")).payload).toEqual({ agent_id: id, status: "active" });
    expect(await e.closed).toEqual({ code: 1000, reason: "approved" });
    const events = await sql`select event_type from agent_events where agent_id = ${id} order by id`;
    expect(events.map((r) => r.event_type)).toEqual(["enrolled", "approved"]);
  });

  it("reuses a pending row when the device comes back, and answers an active device already_enrolled", async () => {
    const first = raw(a, "enroll");
    await first.handshake(serverPk);
    first.hello();
    const one = await first.next("hello.ack");
    first.close();
    const again = raw(a, "enroll", first.key);
    await again.handshake(serverPk);
    again.hello();
    const two = await again.next("hello.ack");
    expect(two.payload.agent_id).toBe(one.payload.agent_id);
    expect(two.payload.pairing_code).not.toBe(one.payload.pairing_code);
    await approveAgent({ ctx: b.ctx, input: { id: one.payload.agent_id as number } });
    expect((await again.closed).code).toBe(1000);
    const third = raw(a, "enroll", first.key);
    await third.handshake(serverPk);
    third.hello();
    expect((await third.next("hello.ack")).payload).toMatchObject({ already_enrolled: true, status: "active" });
    expect(await third.closed).toEqual({ code: 1000, reason: "already_enrolled" });
  });

  it("a rejection closes 1008 with hello.ack rejected; the rejected device is refused afterwards", async () => {
    const e = raw(a, "enroll");
    await e.handshake(serverPk);
    e.hello();
    const id = (await e.next("hello.ack")).payload.agent_id as number;
    // Arranged without a notice: the enroll socket's decision poll finds it.
    await sql`update agents set status = 'rejected' where id = ${id}`;
    expect((await e.next("hello.ack")).payload).toEqual({ agent_id: id, status: "rejected" });
    expect(await e.closed).toEqual({ code: 1008, reason: "rejected" });
    const again = raw(b, "enroll", e.key);
    await again.handshake(serverPk);
    again.hello();
    expect(await again.closed).toEqual({ code: 1008, reason: "rejected" });
  });
});

describe("link", () => {
  it("links, acknowledges committed telemetry, stores it once, dispatches a probe and is cut by a revoke on the other sidecar", async () => {
    const { key, id } = await enrolledAgent(a, b);
    const l = raw(b, "link", key);
    await l.handshake(serverPk);
    l.hello();
    const ack = await l.next("hello.ack");
    expect(ack.payload).toMatchObject({ accepted: true, agent_id: id, capabilities: { host_telemetry: { enabled: true } } });
    expect((await l.next("capabilities.set")).payload.capabilities).toMatchObject({ remote_probe: { enabled: true } });
    const [linked] = await sql`select link_owner, connected_since from agents where id = ${id}`;
    expect(linked!.link_owner).toBe("sidecar-b");

    const sid = sampleId();
    l.frame("heartbeat", { spool_depth: 1, spool_bytes: 100 });
    l.frame("telemetry.host", telemetry(sid));
    const sent = l.seq - 1;
    await until(async () => (await l.next("ping")).payload.ack_seq === sent || undefined);
    const [sample] = await sql`select count(*)::int as n from agent_host_samples where agent_id = ${id} and sample_id = ${sid}`;
    expect(sample!.n).toBe(1);
    const [latest] = await sql`select sample_id from agent_latest_telemetry where agent_id = ${id}`;
    expect(latest!.sample_id).toBe(sid);
    const [live] =
      await sql`select count(*)::int as n from hardware_live_metrics m join agents a on a.hardware_id = m.hardware_id where a.id = ${id} and m.source = 'agent'`;
    expect(live!.n).toBe(1);
    const [spool] = await sql`select spool_depth, spool_bytes::int as spool_bytes from agents where id = ${id}`;
    expect(spool).toMatchObject({ spool_depth: 1, spool_bytes: 100 });

    // The same sample again (a re-send after a reconnect): stored once.
    l.frame("telemetry.host", telemetry(sid));
    const again = l.seq - 1;
    await until(async () => (await l.next("ping")).payload.ack_seq === again || undefined);
    const [still] = await sql`select count(*)::int as n from agent_host_samples where agent_id = ${id}`;
    expect(still!.n).toBe(1);

    // A probe queued through the outbox, announced on the other sidecar's connection.
    const run = randomBytes(16).toString("hex");
    await sql`insert into agent_probe_runs (run_id, agent_id, check_type, host, state, scheduled_at, deadline_at) values (${run}, ${id}, 'tcp', '127.0.0.1', 'queued', now(), now() + interval '1 minute')`;
    await sql`select pg_notify('agent_control', ${JSON.stringify({ agent_id: id, action: "probe" })})`;
    const assign = await l.next("probe.assign");
    expect(assign.payload).toMatchObject({ run_id: run, check_type: "tcp", host: "127.0.0.1" });
    l.frame("probe.result", {
      run_id: run,
      outcome: "completed",
      up: true,
      samples: [{ metric: "latency_ms", value: 1.5, error_reason: null }],
      msg: "ok",
    });
    await until(async () => (await sql`select state, late from agent_probe_runs where run_id = ${run}`)[0]?.state === "completed");
    // A result after the deadline is kept and marked late.
    const lateRun = randomBytes(16).toString("hex");
    await sql`insert into agent_probe_runs (run_id, agent_id, check_type, host, state, scheduled_at, deadline_at, dispatched_at) values (${lateRun}, ${id}, 'tcp', 'x', 'dispatched', now() - interval '2 minutes', now() - interval '1 minute', now())`;
    await until(async () => (await sql`select state from agent_probe_runs where run_id = ${lateRun}`)[0]?.state === "expired");
    l.frame("probe.result", { run_id: lateRun, outcome: "completed", up: false });
    await until(async () => (await sql`select state, late from agent_probe_runs where run_id = ${lateRun}`)[0]?.late === true);
    // A run sent out and then cancelled (its monitor paused): the agent hears probe.cancel with the reason.
    const cancelled = randomBytes(16).toString("hex");
    await sql`insert into agent_probe_runs (run_id, agent_id, check_type, host, state, scheduled_at, deadline_at) values (${cancelled}, ${id}, 'tcp', '127.0.0.1', 'queued', now(), now() + interval '1 minute')`;
    await sql`select pg_notify('agent_control', ${JSON.stringify({ agent_id: id, action: "probe" })})`;
    expect((await l.next("probe.assign")).payload.run_id).toBe(cancelled);
    await sql`update agent_probe_runs set state = 'cancelled', details = ${sql.json({ error_code: "monitor_paused" })} where run_id = ${cancelled}`;
    await sql`select pg_notify('agent_control', ${JSON.stringify({ agent_id: id, action: "probe" })})`;
    expect((await l.next("probe.cancel")).payload).toEqual({ run_id: cancelled, reason: "monitor_paused" });
    // A run the agent refuses is no result for its monitor: the probe status says why, the state stays.
    const [monitor] = await sql<
      { id: number }[]
    >`insert into monitors (name, check_type, host, probe_agent_id) values ('via agent', 'tcp', '127.0.0.1', ${id}) returning id`;
    const refused = randomBytes(16).toString("hex");
    await sql`insert into agent_probe_runs (run_id, agent_id, monitor_id, check_type, host, state, scheduled_at, deadline_at) values (${refused}, ${id}, ${monitor!.id}, 'tcp', '127.0.0.1', 'queued', now(), now() + interval '1 minute')`;
    await sql`select pg_notify('agent_control', ${JSON.stringify({ agent_id: id, action: "probe" })})`;
    expect((await l.next("probe.assign")).payload.run_id).toBe(refused);
    l.frame("probe.result", { run_id: refused, outcome: "rejected", up: false, msg: "max_concurrent reached" });
    await until(
      async () =>
        (await sql`select probe_execution_status from monitors where id = ${monitor!.id}`)[0]?.probe_execution_status === "unavailable",
    );
    const [after] = await sql`select status, probe_execution_reason from monitors where id = ${monitor!.id}`;
    expect(after).toEqual({ status: "pending", probe_execution_reason: "max_concurrent reached" });

    await revokeAgent({ ctx: a.ctx, input: { id, reason: "test revoke" } });
    expect((await l.next("disconnect")).payload).toEqual({ reason: "revoked" });
    expect(await l.closed).toEqual({ code: 1008, reason: "revoked" });
    await until(async () => (await sql`select link_owner from agents where id = ${id}`)[0]?.link_owner === null);
    // The revoked key is refused on its next link.
    const back = raw(a, "link", key);
    await back.handshake(serverPk);
    back.hello();
    expect(await back.closed).toEqual({ code: 1008, reason: "revoked" });
  });

  it("closes a link without heartbeats 1008 heartbeat_timeout, and records the disconnect", async () => {
    const { key, id } = await enrolledAgent(a, a);
    const l = raw(a, "link", key);
    await l.handshake(serverPk);
    l.hello();
    await l.next("hello.ack");
    await l.next("ping");
    expect(await l.closed).toEqual({ code: 1008, reason: "heartbeat_timeout" });
    await until(async () => (await sql`select 1 from agent_events where agent_id = ${id} and event_type = 'disconnected'`).length > 0);
  });

  it("uninstall revokes the agent itself and closes 1000", async () => {
    const { key, id } = await enrolledAgent(a, a);
    const l = raw(a, "link", key);
    await l.handshake(serverPk);
    l.hello();
    await l.next("hello.ack");
    l.frame("uninstall", { reason: "apt remove" });
    expect(await l.closed).toEqual({ code: 1000, reason: "uninstalled" });
    const [row] = await sql`select status, revoke_reason from agents where id = ${id}`;
    expect(row).toMatchObject({ status: "revoked", revoke_reason: "uninstalled by the agent" });
  });
});
