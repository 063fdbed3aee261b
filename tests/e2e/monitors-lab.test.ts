// Issue 12's lab through the product as users run it (`npm start` on a test database, HTTP only): a
// switch with four servers connected from it and twenty services on them, a tcp monitor on the switch and
// on every service, each against a TCP listener of this test on its own 127.0.0.x address, a webhook sink
// pointing at a receiver here that verifies the Standard Webhooks signature, and a route for severity `*`.
// Every listener closes (the switch "goes down", and the twenty services behind it with it) -> the
// runner finds them down, and the receiver gets exactly one alert, the switch's, naming all twenty; each
// service's down event carries suppressed_by. The listeners reopen -> every recovery is sent on its own
// (docs/adr/0112-alerts-folded-by-the-dependency-graph.md: recoveries are never folded), and GET /notifications/deliveries
// shows each delivery with its attempt.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, type Product } from "./helpers.ts";
import { type Admin, bootstrapAdmin, createTestDatabase, startOn, type TestDatabase } from "./agents/support.ts";

const GROUPING_DELAY_S = 3;
const INTERVAL_S = 10;
/** Standard Webhooks' advice: refuse a timestamp further than five minutes from now. */
const TIMESTAMP_TOLERANCE_S = 300;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every `everyMs` until it gives something other than undefined; throws after `ms`. */
async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms: number,
  detail: () => string = () => "",
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}\n${detail()}`);
    await sleep(everyMs);
  }
}

/** A TCP listener the test opens and closes: the monitored thing being up or down. */
class Target {
  private server: TcpServer | null = null;
  port = 0;
  readonly host: string;
  constructor(host: string) {
    this.host = host;
  }

  async open(): Promise<void> {
    const server = createTcpServer((socket) => {
      socket.on("error", () => {});
      socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      // The same port again on reopening, so the monitor finds the thing back where it was.
      server.listen(this.port, this.host, () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise((r) => server.close(r));
  }
}

interface Hook {
  headers: IncomingHttpHeaders;
  body: string;
  verified: boolean;
  type: string;
  data: {
    alert_id: number;
    title: string;
    message: string;
    severity: string;
    monitor_id: number | null;
    detail: { affected?: { monitor_id: number; title: string }[] };
  };
}

/** Standard Webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed by the base64 after `whsec_`, compared in constant time. */
function verifySignature(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = headers["webhook-id"];
  const timestamp = Number(headers["webhook-timestamp"]);
  const signatures = headers["webhook-signature"];
  if (typeof id !== "string" || typeof signatures !== "string" || !Number.isInteger(timestamp)) return false;
  if (Math.abs(Date.now() / 1000 - timestamp) > TIMESTAMP_TOLERANCE_S) return false;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(" ").some((s) => {
    if (!s.startsWith("v1,")) return false;
    const given = Buffer.from(s.slice(3), "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The webhook receiver: records every request, answers 200 when the signature holds and 401 otherwise. */
async function startReceiver(secretOf: () => string): Promise<{ url: string; received: Hook[]; close(): Promise<void> }> {
  const received: Hook[] = [];
  const server: Server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const verified = verifySignature(secretOf(), req.headers, body);
      let parsed: { type?: string; data?: Hook["data"] } = {};
      try {
        parsed = JSON.parse(body);
      } catch {
        // recorded as is; the assertions on type and data fail
      }
      received.push({ headers: req.headers, body, verified, type: parsed.type ?? "", data: parsed.data as Hook["data"] });
      res.statusCode = verified ? 200 : 401;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/lab`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

interface Monitored {
  name: string;
  target: Target;
  monitorId: number;
}

let db: TestDatabase;
let p: Product;
let admin: Admin;
let secret = "";
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let sinkId = 0;
let switchThing: Monitored;
const services: Monitored[] = [];
const all = () => [switchThing, ...services];

const downs = () => receiver.received.filter((r) => r.type === "monitor.down");
const ups = () => receiver.received.filter((r) => r.type === "monitor.up");
const received = () => receiver.received.map((r) => `${r.type} ${r.data?.title} verified=${r.verified}`).join("\n");

interface MonitorRow {
  id: number;
  status: string;
  next_check_at: string;
}
interface EventRow {
  event_type: string;
  suppressed_by: number | null;
}
interface DeliveryRow {
  state: string;
  attempt_count: number;
  alert: { kind: string; title: string; monitor_id: number | null };
  attempts: { attempt: number; outcome: string; http_status: number | null }[];
}

/**
 * A GET as a well-behaved client makes it: a 429 is waited out for its Retry-After (three times at most).
 * Reads are per-route rate limited (30 a minute), so the test polls lists once a second and waits on its
 * own receiver, not on the API.
 */
async function get<T>(path: string): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await admin.call<T>("GET", path);
    } catch (e) {
      const retry = / -> 429 .*"retry_after":(\d+)/.exec((e as Error).message);
      if (!retry || attempt >= 3) throw e;
      await sleep(Number(retry[1]) * 1000 + 100);
    }
  }
}

const statuses = async () => (await get<{ items: MonitorRow[] }>("monitors?limit=100")).items;
const deliveries = async () => (await get<{ items: DeliveryRow[] }>(`notifications/deliveries?sink_id=${sinkId}&limit=100`)).items;
const latestDown = async (monitorId: number) =>
  (await get<{ items: EventRow[] }>(`monitors/${monitorId}/events?event_type=down&limit=1`)).items[0];

/**
 * Waits until just after a round of checks, so that closing (or opening) every listener now is seen by
 * the next round of all twenty-one together. Closing in the middle of a round would let half the monitors
 * notice one interval later than the rest, further apart than the grouping delay: a switch failing does
 * not wait for a check, but a test that wants one round must.
 */
async function betweenRounds(): Promise<void> {
  const due = (await statuses()).map((m) => Date.parse(m.next_check_at));
  const last = Math.max(...due);
  const period = INTERVAL_S * 1000;
  // Some may already be due in the next round: compare their places in the interval, on a circle.
  const apart = due.map((d) => (last - d) % period).map((x) => Math.min(x, period - x));
  expect(Math.max(...apart), "the monitors' checks come due within 1.5 s of each other").toBeLessThan(1500);
  // Every check of the round holding `last` has run by then (the runner polls every 250 ms), and the
  // next round is more than 7 s away.
  await sleep(Math.max(0, last + 2500 - Date.now()));
}

/** Resolves once every monitor has `status` (bounded). */
async function allStatus(status: string, ms: number): Promise<void> {
  await waitFor(
    `all 21 monitors ${status}`,
    async () => {
      const rows = await statuses();
      return rows.length === 21 && rows.every((r) => r.status === status) ? true : undefined;
    },
    ms,
    () => p.output(),
    1000,
  );
}

beforeAll(async () => {
  db = await createTestDatabase();
  p = await startOn(db, { NOTIFICATION_GROUPING_DELAY_S: String(GROUPING_DELAY_S) });
  admin = await bootstrapAdmin(p);
  receiver = await startReceiver(() => secret);
}, 90_000);

afterAll(async () => {
  await killAll();
  await Promise.all(
    all()
      .filter(Boolean)
      .map((m) => m.target.close()),
  );
  await receiver?.close();
  await db?.drop();
});

describe("the switch lab through the product", () => {
  it("builds the inventory, the monitors, the sink and its route over HTTP", async () => {
    const sink = await admin.call<{ id: number; secret: string }>("POST", "notifications/sinks", {
      name: "lab receiver",
      provider_type: "webhook",
      provider_config: { url: receiver.url },
    });
    expect(sink.secret).toMatch(/^whsec_/);
    secret = sink.secret;
    sinkId = sink.id;
    await admin.call("POST", "notifications/routes", { sink_id: sink.id, alert_severity: "*" });

    // The blast radius follows hardware connections from the switch and the services on the hardware.
    const sw = await admin.call<{ id: number }>("POST", "hardware", { name: "switch-3", role: "switch" });
    const specs: { name: string; serviceId: number; target: Target }[] = [];
    for (let s = 0; s < 4; s++) {
      const server = await admin.call<{ id: number }>("POST", "hardware", { name: `server-${s}`, role: "server" });
      await admin.call("POST", `hardware/${sw.id}/connections`, { target_hardware_id: server.id, connection_type: "ethernet" });
      for (let i = 0; i < 5; i++) {
        const name = `svc-${s}-${i}`;
        const svc = await admin.call<{ id: number }>("POST", "services", { name, hardware_id: server.id });
        specs.push({ name, serviceId: svc.id, target: new Target(`127.0.0.${40 + specs.length}`) });
      }
    }
    const blast = await admin.call<{ impacted_services: unknown[] }>("GET", `intel/blast-radius/hardware/${sw.id}`);
    expect(blast.impacted_services).toHaveLength(20);

    const switchTarget = new Target("127.0.0.39");
    await Promise.all([switchTarget, ...specs.map((x) => x.target)].map((t) => t.open()));
    const create = (name: string, target: Target, target_type: string, target_id: number) =>
      admin.call<{ id: number }>("POST", "monitors", {
        name,
        check_type: "tcp",
        host: target.host,
        config: { port: target.port },
        interval_secs: INTERVAL_S,
        max_retries: 0,
        target_type,
        target_id,
      });
    // Created together, so the twenty-one checks come due within a moment of each other every interval:
    // all the failures land inside one grouping delay, as they do when a switch really dies.
    const [swMonitor, ...svcMonitors] = await Promise.all([
      create("switch-3 tcp", switchTarget, "hardware", sw.id),
      ...specs.map((x) => create(`${x.name} tcp`, x.target, "service", x.serviceId)),
    ]);
    switchThing = { name: "switch-3 tcp", target: switchTarget, monitorId: swMonitor!.id };
    for (const [k, x] of specs.entries()) services.push({ name: `${x.name} tcp`, target: x.target, monitorId: svcMonitors[k]!.id });
    // On a loaded machine twenty-one creations can spread over more than the grouping delay; a switch's
    // monitors share one schedule in the lab this test stands for, so give them one (the runner advances
    // each from its own due time, so they stay together).
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      await sql`update monitors set next_check_at = now() + interval '1 second'`;
    } finally {
      await sql.end();
    }

    await allStatus("up", 30_000);
    expect(receiver.received).toHaveLength(0);
  }, 60_000);

  it("sends exactly one alert, the switch's, naming all twenty services, when everything goes down", async () => {
    await betweenRounds();
    await Promise.all(all().map((m) => m.target.close()));

    // Bounded: one interval to notice, the grouping delay, one delivery round; 60 s leaves room.
    await waitFor(
      "the switch's alert",
      async () => (downs().length > 0 ? true : undefined),
      60_000,
      () => `${received()}\n${p.output()}`,
      100,
    );
    const rootAlertId = downs()[0]!.data.alert_id;
    // Each monitor's own state stays true: all twenty-one are down.
    await allStatus("down", 20_000);
    // Once every down alert is past the grouping delay and a dispatch round, nothing else may come.
    await sleep((GROUPING_DELAY_S + 2) * 1000);

    expect(downs()).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    const alert = downs()[0]!;
    expect(alert.verified).toBe(true);
    expect(alert.data.severity).toBe("critical");
    expect(alert.data.monitor_id).toBe(switchThing.monitorId);
    expect(alert.data.title).toBe("switch-3 tcp is down: 20 monitors affected");
    for (const m of services) expect(alert.data.message).toContain(`- ${m.name} is down`);
    expect(alert.data.detail.affected?.map((a) => a.monitor_id).sort((a, b) => a - b)).toEqual(
      services.map((m) => m.monitorId).sort((a, b) => a - b),
    );

    for (const m of services) expect((await latestDown(m.monitorId))?.suppressed_by).toBe(rootAlertId);
    expect((await latestDown(switchThing.monitorId))?.suppressed_by).toBeNull();

    const list = await waitFor(
      "the alert's delivery recorded",
      async () => {
        const items = await deliveries();
        return items.length === 1 && items[0]!.state === "delivered" ? items : undefined;
      },
      10_000,
      received,
      1000,
    );
    expect(list[0]).toMatchObject({
      state: "delivered",
      attempt_count: 1,
      alert: { kind: "monitor.down", monitor_id: switchThing.monitorId, title: alert.data.title },
    });
    expect(list[0]!.attempts).toEqual([expect.objectContaining({ attempt: 1, outcome: "delivered", http_status: 200 })]);
  }, 120_000);

  it("sends every recovery on its own when the switch and the services come back", async () => {
    await Promise.all(all().map((m) => m.target.open()));

    await waitFor(
      "21 recoveries",
      async () => (ups().length >= 21 ? true : undefined),
      60_000,
      () => `${received()}\n${p.output()}`,
      100,
    );
    await allStatus("up", 5_000);
    await sleep((GROUPING_DELAY_S + 2) * 1000);

    expect(ups()).toHaveLength(21);
    expect(downs()).toHaveLength(1);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(22);
    expect(
      ups()
        .map((r) => r.data.title)
        .sort(),
    ).toEqual(
      all()
        .map((m) => `${m.name} is up again`)
        .sort(),
    );
    expect(
      ups()
        .map((r) => r.data.monitor_id)
        .sort((a, b) => a! - b!),
    ).toEqual(
      all()
        .map((m) => m.monitorId)
        .sort((a, b) => a - b),
    );
    expect(ups().every((r) => r.data.severity === "info")).toBe(true);

    const list = await waitFor(
      "22 deliveries recorded",
      async () => {
        const items = await deliveries();
        return items.length === 22 && items.every((d) => d.state === "delivered") ? items : undefined;
      },
      10_000,
      received,
      1000,
    );
    expect(list.filter((d) => d.alert.kind === "monitor.down")).toHaveLength(1);
    expect(list.filter((d) => d.alert.kind === "monitor.up")).toHaveLength(21);
    for (const d of list) {
      expect(d.attempt_count).toBe(1);
      expect(d.attempts).toEqual([expect.objectContaining({ attempt: 1, outcome: "delivered", http_status: 200 })]);
    }
  }, 120_000);
});
