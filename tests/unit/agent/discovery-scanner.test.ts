// The reference agent's discovery scanner on loopback only: a request inside its grant is scanned and
// answered with one host frame per live address and a terminal summary; requests outside its scope, over
// its address limit or without the grant are rejected with the reason; discovery.cancel stops a scan.
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiscoveryScanner, type FindingFrame } from "../../../agent/discovery/scanner.ts";
import { silentLog } from "../../../agent/log.ts";

let server: Server;
let port = 0;
const DISPATCH = "ab".repeat(16);

beforeAll(async () => {
  server = createServer((s) => {
    s.on("error", () => {});
    s.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.3", r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => server.close());

function scanner(config: Record<string, unknown>, enabled = true) {
  const frames: FindingFrame[] = [];
  const s = new DiscoveryScanner({
    send: (f) => frames.push(f),
    log: silentLog,
    scope: () => ({ networks: [], enabled, config }),
    progressMs: 50,
  });
  const terminal = async () => {
    for (let i = 0; i < 200 && !frames.some((f) => f.terminal); i++) await new Promise((r) => setTimeout(r, 25));
    return frames.find((f) => f.terminal)!;
  };
  return { s, frames, terminal };
}

const request = (extra: Record<string, unknown> = {}) => ({
  dispatch_id: DISPATCH,
  job_id: 7,
  targets: ["127.0.0.2-127.0.0.4"],
  exclude: [],
  scan_types: ["agent_connect"],
  tcp_ports: [port],
  timeout_ms: 500,
  max_concurrent_hosts: 4,
  ...extra,
});

describe("the agent's discovery scanner", () => {
  it("scans a request inside its grant: host frames, then a completed summary", async () => {
    const { s, frames, terminal } = scanner({ additional_cidrs: ["127.0.0.0/24"] });
    s.request(request());
    const end = await terminal();
    expect(end).toMatchObject({ dispatch_id: DISPATCH, scan_job_id: 7, kind: "summary", outcome: "completed", addresses_scanned: 3 });
    const hosts = frames.filter((f) => f.kind === "host");
    expect(hosts.map((h) => h.ip_address).sort()).toEqual(["127.0.0.2", "127.0.0.3", "127.0.0.4"]);
    expect(hosts.find((h) => h.ip_address === "127.0.0.3")!.open_ports).toEqual([{ port, protocol: "tcp" }]);
    expect(hosts.find((h) => h.ip_address === "127.0.0.2")!.open_ports).toEqual([]);
    expect(end.hosts_found).toBe(3);
    for (const f of frames) expect(f.finding_id).toMatch(/^[0-9a-f]{32}$/);
  });

  it("rejects targets outside its scope, over its address limit, or without the grant", async () => {
    let t = scanner({ additional_cidrs: ["127.0.0.0/30"] });
    t.s.request(request({ targets: ["127.0.0.0/24"] }));
    expect(await t.terminal()).toMatchObject({ outcome: "rejected", error_code: "out_of_scope" });
    expect(t.frames.some((f) => f.kind === "host")).toBe(false);

    t = scanner({ additional_cidrs: ["127.0.0.0/16"], max_addresses_per_job: 10 });
    t.s.request(request({ targets: ["127.0.1.0/24"] }));
    expect(await t.terminal()).toMatchObject({ outcome: "rejected", error_code: "out_of_scope" });

    t = scanner({ additional_cidrs: ["127.0.0.0/24"], excluded_cidrs: ["127.0.0.3/32"] });
    t.s.request(request());
    expect(await t.terminal()).toMatchObject({ outcome: "rejected", error_code: "out_of_scope" });

    t = scanner({ additional_cidrs: ["127.0.0.0/24"] }, false);
    t.s.request(request());
    expect(await t.terminal()).toMatchObject({ outcome: "rejected", error_code: "capability_disabled" });
  });

  it("stops a scan on discovery.cancel within a second", async () => {
    const { s, frames, terminal } = scanner({ additional_cidrs: ["127.0.0.0/16"], max_addresses_per_job: 4096 });
    s.request(
      request({ targets: ["127.0.4.0/22"], tcp_ports: Array.from({ length: 300 }, (_, i) => 32_000 + i), max_concurrent_hosts: 1 }),
    );
    for (let i = 0; i < 100 && !frames.some((f) => f.kind === "host"); i++) await new Promise((r) => setTimeout(r, 20));
    const t0 = performance.now();
    s.cancel({ dispatch_id: DISPATCH, reason: "cancelled_by_user" });
    const end = await terminal();
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(end).toMatchObject({ outcome: "cancelled" });
    expect(end.addresses_scanned).toBeLessThan(1022);
    expect(s.active).toBe(0);
  });
});
