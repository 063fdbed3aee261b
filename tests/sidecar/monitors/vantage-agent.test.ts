// A multi-vantage monitor end to end (docs/adr/0441): the product started as the README says, the
// reference agent enrolled and approved with probe grants, and a tcp monitor made through the API with
// that agent as a vantage point beside the sidecar (quorum: a majority of 2, so both). The sidecar checks
// the target itself and queues the probe on the agent; the agent's probe.result, committed by the link
// batch, lands on its own point. Up while the target listens (both points fresh and up), down once both
// agree it stopped.
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../../e2e/helpers.ts";
import { type Admin, type AgentProcess, spawnAgent, tempDir, TEST_GRANTS, until, productFixture } from "../../e2e/agents/support.ts";

let p: Product;
let admin: Admin;
let sql: postgres.Sql;
let tcp: TcpServer;
const state = tempDir("monitor-vantage-");
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

interface Point {
  vantage: string;
  status: string | null;
  fresh: boolean;
}

describe("a monitor checked from the sidecar and an agent", () => {
  it("keeps each point's result and is down only when both agree", async () => {
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
    const m = await admin.call<{ id: number; quorum: number }>("POST", "monitors", {
      name: "from two places",
      check_type: "tcp",
      host: "127.0.0.1",
      config: { port },
      interval_secs: 30,
      vantage_agent_ids: [agent_id],
    });
    expect(m.quorum).toBe(2);
    const poke = () =>
      sql`with u as (update monitors set next_check_at = now() where id = ${m.id} returning id) select pg_notify('monitor_control', '{}') from u`;
    let last: { status: string; vantage_results: Point[] } | undefined;
    const read = async () => (last = await admin.call<{ status: string; vantage_results: Point[] }>("GET", `monitors/${m.id}`));
    // "Check now" until both points have answered (the agent's first tries may find it not ready yet).
    const waitFor = (what: string, status: string) =>
      until(
        what,
        async () => {
          const r = await read();
          if (r.status === status && r.vantage_results.every((v) => v.fresh && v.status === status)) return r;
          await poke();
          await new Promise((res) => setTimeout(res, 300));
          return undefined;
        },
        40_000,
        () => `${agent.output()}\nlast: ${JSON.stringify(last)}`,
      );

    const up = await waitFor("both points up", "up");
    expect(up.vantage_results.map((v) => v.vantage).sort()).toEqual([String(agent_id), "sidecar"].sort());
    const sources = await sql<{ source: string }[]>`select distinct source from monitor_samples where monitor_id = ${m.id} order by source`;
    expect(sources.map((s) => s.source)).toEqual(["agent", "server"]);

    await new Promise<void>((r) => tcp.close(() => r()));
    await waitFor("both points down", "down");
    const alerts = await sql<{ kind: string }[]>`select kind from notification_alerts where monitor_id = ${m.id} order by id`;
    // One point may report before the other agrees: degraded (a warning) on the way, then down.
    expect(alerts.map((a) => a.kind).at(-1)).toBe("monitor.down");
    expect(alerts.map((a) => a.kind).every((k) => k === "monitor.degraded" || k === "monitor.down")).toBe(true);
  }, 150_000);
});
