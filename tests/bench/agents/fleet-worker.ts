// One worker thread of the agents benchmark's load generator: it holds a share of the simulated fleet,
// each agent a real Noise IK link through the reference agent's Connection and frames (agent/), from its
// own loopback source address so the per-IP gate (20 per 60 s) is not what is measured. The main thread
// drives it with messages; it answers with counts and latencies, never with per-frame chatter.
import { parentPort, workerData } from "node:worker_threads";
import { Connection, LinkClosed } from "../../../agent/connection.ts";
import { generateKeyPair, keyPairOf, type KeyPair } from "../../../shared/noise/index.ts";
import { benchHeartbeat, benchHello, benchTelemetry } from "./frames.ts";

export interface WorkerInit {
  url: string;
  serverKeyHex: string;
  heartbeatMs: number;
  telemetryMs: number;
  /** Links this worker keeps opening at once. */
  concurrency: number;
}

export type Command =
  | { type: "keys"; count: number }
  | { type: "link"; agents: { secretHex: string; localAddress: string }[] }
  | { type: "measure" }
  | { type: "report" }
  | { type: "stop" };

interface Sim {
  conn: Connection;
  /** seq -> when the telemetry frame was sent, until a ping's ack_seq covers it. */
  unacked: Map<number, number>;
  nextHeartbeat: number;
  nextTelemetry: number;
}

const init = workerData as WorkerInit;
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const serverKey = new Uint8Array(Buffer.from(init.serverKeyHex, "hex"));
const sims: Sim[] = [];
let latencies: number[] = [];
let sent = 0;
/** Telemetry frames sent since the start, for the loss check against the database. */
let totalSent = 0;
let acked = 0;
let lost = 0;
let measuring = false;
let windowStart = 0;

function onFrame(sim: Sim, payload: Record<string, unknown>, type: string): void {
  if (type !== "ping" || typeof payload.ack_seq !== "number") return;
  const now = performance.now();
  for (const [seq, at] of sim.unacked) {
    if (seq > payload.ack_seq) continue;
    sim.unacked.delete(seq);
    // Only frames sent inside the window count, so "acked of sent" compares like with like.
    if (measuring && at >= windowStart) {
      acked++;
      latencies.push(now - at);
    }
  }
}

async function linkOne(device: KeyPair, localAddress: string): Promise<number> {
  const started = performance.now();
  // Bounded, but far past what the link gate (1000 per 10 s) refuses a fleet of 10,000 arriving at once.
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      const conn = await Connection.open({ url: init.url, device, serverKey, localAddress });
      const accepted = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no hello.ack in 10 s")), 10_000);
        conn.onFrame((f) => {
          if (f.type === "hello.ack" && f.payload.accepted === true) {
            clearTimeout(timer);
            resolve();
          }
          onFrame(sim, f.payload, f.type);
        });
        void conn.closed.then((c) => reject(new LinkClosed("handshake", c.code, c.reason)));
      });
      const now = Date.now();
      // Random phases: a fleet's timers are spread, not aligned.
      const sim: Sim = {
        conn,
        unacked: new Map(),
        nextHeartbeat: now + Math.random() * init.heartbeatMs,
        nextTelemetry: now + Math.random() * init.telemetryMs,
      };
      conn.send("hello", benchHello(hex(device.publicKey)));
      await accepted;
      sims.push(sim);
      void conn.closed.then(() => {
        lost += sim.unacked.size;
      });
      return performance.now() - started;
    } catch (e) {
      // 1013: a rate gate; wait and try again as an agent's backoff would.
      const code = e instanceof LinkClosed ? e.code : null;
      if (code !== 1013) throw e;
      await new Promise((r) => setTimeout(r, 500 + Math.random() * 1500));
    }
  }
  throw new Error("gave up after 200 refusals");
}

async function linkAll(
  agents: { secretHex: string; localAddress: string }[],
): Promise<{ handshakeMs: number[]; failed: number; firstError?: string }> {
  const handshakeMs: number[] = [];
  let failed = 0;
  let firstError: string | undefined;
  let next = 0;
  const lane = async () => {
    while (next < agents.length) {
      const a = agents[next++]!;
      try {
        handshakeMs.push(await linkOne(keyPairOf(new Uint8Array(Buffer.from(a.secretHex, "hex"))), a.localAddress));
      } catch (e) {
        failed++;
        firstError ??= (e as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: init.concurrency }, lane));
  return { handshakeMs, failed, ...(firstError ? { firstError } : {}) };
}

// One shared tick drives every simulated agent's timers (as the sidecar does on its side).
const tick = setInterval(() => {
  const now = Date.now();
  for (const sim of sims) {
    if (sim.conn.isClosed) continue;
    if (now >= sim.nextHeartbeat) {
      sim.conn.send("heartbeat", benchHeartbeat(sim.unacked.size));
      sim.nextHeartbeat = now + init.heartbeatMs;
    }
    if (now >= sim.nextTelemetry) {
      const seq = sim.conn.send("telemetry.host", benchTelemetry());
      if (seq !== undefined) {
        sim.unacked.set(seq, performance.now());
        sent++;
        totalSent++;
      }
      sim.nextTelemetry = now + init.telemetryMs;
    }
  }
}, 50);

parentPort!.on("message", async (cmd: Command) => {
  switch (cmd.type) {
    case "keys": {
      const keys = Array.from({ length: cmd.count }, () => {
        const k = generateKeyPair();
        return { secretHex: hex(k.secretKey), publicHex: hex(k.publicKey) };
      });
      parentPort!.postMessage({ type: "keys", keys });
      break;
    }
    case "link":
      parentPort!.postMessage({ type: "linked", ...(await linkAll(cmd.agents)) });
      break;
    case "measure":
      latencies = [];
      sent = 0;
      acked = 0;
      measuring = true;
      windowStart = performance.now();
      parentPort!.postMessage({ type: "measuring" });
      break;
    case "report":
      parentPort!.postMessage({
        type: "report",
        latencies,
        sent,
        acked,
        totalSent,
        lost,
        open: sims.filter((s) => !s.conn.isClosed).length,
        unacked: sims.reduce((n, s) => n + s.unacked.size, 0),
      });
      break;
    case "stop":
      clearInterval(tick);
      for (const s of sims) s.conn.close(1000, "bench over");
      await Promise.race([Promise.all(sims.map((s) => s.conn.closed)), new Promise((r) => setTimeout(r, 5000))]);
      // The tick ran until now: the final count is what the database must hold.
      parentPort!.postMessage({ type: "stopped", totalSent });
      break;
  }
});
