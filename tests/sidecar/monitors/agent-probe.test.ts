// An agent-probed monitor end to end: the product started as the README says (its monitors worker
// among the sidecar's workers), the reference agent enrolled and approved with probe grants, and a tcp
// monitor assigned to it (probe_agent_id). The runner queues each check on the agent (requestProbe) instead
// of checking itself; the agent's probe.result, committed by the link batch, is recorded as the monitor's
// result through the same state machine: up while the target listens, down (with an alert) once it stops.
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../../e2e/helpers.ts";
import { type Admin, type AgentProcess, spawnAgent, tempDir, TEST_GRANTS, until, productFixture } from "../../e2e/agents/support.ts";

let p: Product;
let admin: Admin;
let sql: postgres.Sql;
let tcp: TcpServer;
const state = tempDir("monitor-agent-");
let agent: AgentProcess;

const fixture = productFixture();

beforeAll(async () => {
  ({ sql, p, admin } = await fixture.start());
  tcp = createTcpServer((s) => s.end());
  await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r));
}, 90_000);

afterAll(async () => {
  await fixture.stop();
  tcp?.close();
  state.remove();
});

type Row = {
  status: string;
  probe_execution_status: string | null;
  probe_execution_reason: string | null;
  probe_last_result_at: Date | null;
};

describe("a monitor probed through an agent", () => {
  it("records the agent's answers as the monitor's results", async () => {
    agent = spawnAgent(["--server", p.url, "--state-dir", state.dir, "--log-level", "info"], false);
    const code = await until(
      "the pairing code",
      () => /PAIRING CODE:\s+([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(agent.output())?.[1],
      30_000,
      agent.output,
    );
    const { agent_id } = await admin.call<{ agent_id: number }>("POST", "agents/pairing/lookup", { code });
    await admin.call("POST", `agents/${agent_id}/approve`, { host_link_action: "create", capabilities: TEST_GRANTS });
    await until("the link", () => (agent.output().includes(`linked as agent ${agent_id}`) ? true : undefined), 20_000, agent.output);

    const port = (tcp.address() as { port: number }).port;
    const [m] = await sql<{ id: number }[]>`
      insert into monitors (name, check_type, host, config, interval_secs, probe_agent_id, next_check_at)
      values ('via agent', 'tcp', '127.0.0.1', ${sql.json({ port })}, 10, ${agent_id}, now()) returning id`;
    const id = m!.id;
    // "Check now" until the agent has reported its readiness and answered (the first tries may find it not ready).
    const poke = () =>
      sql`with u as (update monitors set next_check_at = now() where id = ${id} returning id) select pg_notify('monitor_control', '{}') from u`;
    let last: Row | undefined;
    const row = async () =>
      (last = (
        await sql<Row[]>`select status, probe_execution_status, probe_execution_reason, probe_last_result_at from monitors where id = ${id}`
      )[0]!);

    const up = await until(
      "the agent's first answer",
      async () => {
        const r = await row();
        if (r.status === "up") return r;
        await poke();
        await new Promise((res) => setTimeout(res, 300));
        return undefined;
      },
      30_000,
      () => `${agent.output()}\nlast row: ${JSON.stringify(last)}`,
    );
    expect(up.probe_execution_status).toBe("ready");
    expect(up.probe_last_result_at).not.toBeNull();
    const [sample] = await sql<
      { source: string; avail: boolean }[]
    >`select source, avail from monitor_samples where monitor_id = ${id} order by ts desc limit 1`;
    expect(sample).toEqual({ source: "agent", avail: true });
    const [run] = await sql<{ n: number }[]>`select count(*)::int as n from agent_probe_runs where monitor_id = ${id}`;
    expect(run!.n).toBeGreaterThanOrEqual(1);

    await new Promise<void>((r) => tcp.close(() => r()));
    await until(
      "down",
      async () => {
        if ((await row()).status === "down") return true;
        await poke();
        await new Promise((res) => setTimeout(res, 300));
        return undefined;
      },
      30_000,
      () => `last row: ${JSON.stringify(last)}`,
    );
    const alerts = await sql<{ kind: string }[]>`select kind from notification_alerts where monitor_id = ${id}`;
    expect(alerts.map((a) => a.kind)).toEqual(["monitor.down"]);
  }, 120_000);
});
