// Monitors of mixed types (issue 29, Performance): 10,000 monitors x BENCH_SCALE (BENCH_MONITORS_MIXED
// overrides; at least 70) at a 60 s interval, a third http, a third tcp and the rest spread over udp,
// websocket, redis, ssh, tls, dns and grpc, each against loopback peers this process starts (the redis
// ones against the local Redis on 127.0.0.1:6379). Target: check lag p99 < 2 s, the sidecar (the
// benchmark's server process) under 25% of one core. Figures as tests/bench/monitors.bench.ts: lag
// p50/p99 after a warm-up interval over BENCH_MONITORS_WINDOW_S, checks skipped and down, server CPU.
import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import * as grpc from "@grpc/grpc-js";
import { WebSocketServer } from "ws";
import { type DnsPeer, selfSignedCert, startDnsPeer } from "../sidecar/monitors/peers.ts";
import { type BenchContext, type BenchRow, SCALE } from "./harness.ts";
import { type BenchMonitor, measureMonitors } from "./monitors.bench.ts";

const COUNT = Math.max(70, Number(process.env.BENCH_MONITORS_MIXED ?? Math.round(10_000 * SCALE)));
const HOST = "127.0.0.1";
const NEW_TYPES = ["udp", "websocket", "redis", "ssh", "tls", "dns", "grpc"] as const;
const REDIS_PORT = 6379;

/** grpc.health.v1.Health/Check answering SERVING to every request (raw protobuf: field 1 = 1). */
const HEALTH: grpc.ServiceDefinition = {
  check: {
    path: "/grpc.health.v1.Health/Check",
    requestStream: false,
    responseStream: false,
    requestSerialize: (b: Buffer) => b,
    requestDeserialize: (b: Buffer) => b,
    responseSerialize: (b: Buffer) => b,
    responseDeserialize: (b: Buffer) => b,
  },
};

const listen = (s: Server | TcpServer) => new Promise<number>((r) => s.listen(0, HOST, () => r((s.address() as { port: number }).port)));

interface Peers {
  http: string;
  tcp: number;
  udp: number;
  ws: string;
  ssh: number;
  tls: number;
  dns: DnsPeer;
  grpc: number;
  close(): Promise<void>;
}

/** One peer of each kind on loopback; each answers every check (so no result is down and retried sooner). */
async function peers(): Promise<Peers> {
  const servers: (Server | TcpServer)[] = [];
  const http = createHttpServer((_req, res) => res.end("ok"));
  http.keepAliveTimeout = 1000;
  const tcp = createTcpServer((s) => {
    s.on("error", () => {});
    s.end();
  });
  const ssh = createTcpServer((s) => {
    s.on("error", () => {});
    s.end("SSH-2.0-BenchPeer_1.0\r\n");
  });
  const pem = selfSignedCert(30);
  const tls = createTlsServer({ key: pem.key, cert: pem.cert }, (s) => {
    s.on("error", () => {});
    s.end();
  });
  const wsHttp = createHttpServer();
  const wss = new WebSocketServer({ server: wsHttp });
  wss.on("connection", (c) => c.on("message", (m) => c.send(`echo: ${String(m)}`)));
  servers.push(http, tcp, ssh, tls, wsHttp);
  const [httpPort, tcpPort, sshPort, tlsPort, wsPort] = await Promise.all(servers.map(listen));
  const udp: UdpSocket = createSocket("udp4");
  udp.on("message", (m, from) => udp.send(`echo: ${m.toString()}`, from.port, from.address));
  await new Promise<void>((r) => udp.bind(0, HOST, () => r()));
  const dns = await startDnsPeer({ "bench.test": { A: ["127.0.0.1"] } }, HOST);
  const g = new grpc.Server();
  g.addService(HEALTH, { check: (_c: unknown, cb: grpc.sendUnaryData<Buffer>) => cb(null, Buffer.from([0x08, 1])) });
  const grpcPort = await new Promise<number>((resolve, reject) =>
    g.bindAsync(`${HOST}:0`, grpc.ServerCredentials.createInsecure(), (e, port) => (e ? reject(e) : resolve(port))),
  );
  return {
    http: `http://${HOST}:${httpPort}/health`,
    tcp: tcpPort!,
    udp: udp.address().port,
    ws: `ws://${HOST}:${wsPort}/`,
    ssh: sshPort!,
    tls: tlsPort!,
    dns,
    grpc: grpcPort,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      for (const s of servers) (s as Server).closeAllConnections?.();
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
      udp.close();
      await dns.close();
      g.forceShutdown();
    },
  };
}

function monitorOf(p: Peers, n: number): BenchMonitor {
  const third = n % 3;
  if (third === 0) return { check_type: "http", host: HOST, config: { url: p.http, timeout: 5 } };
  if (third === 1) return { check_type: "tcp", host: HOST, config: { port: p.tcp, timeout: 2 } };
  const type = NEW_TYPES[Math.floor(n / 3) % NEW_TYPES.length]!;
  const config: Record<string, Record<string, unknown>> = {
    udp: { port: p.udp, payload: "ping", expected_reply: "echo: ping", timeout: 2 },
    websocket: { url: p.ws, send: "ping", expected_reply: "echo: ping", timeout: 5 },
    redis: { port: REDIS_PORT, timeout: 2 },
    ssh: { port: p.ssh, timeout: 2 },
    tls: { port: p.tls, verify_chain: false, verify_hostname: false, timeout: 5 },
    dns: { resolver: HOST, port: p.dns.port, record_type: "A", expected_values: ["127.0.0.1"], timeout: 2 },
    grpc: { port: p.grpc, timeout: 5 },
  };
  // A dns monitor's host is the name it resolves.
  return { check_type: type, host: type === "dns" ? "bench.test" : HOST, config: config[type]! };
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const p = await peers();
  try {
    return await measureMonitors(ctx, {
      tag: `bench-mix-${process.pid}`,
      count: COUNT,
      monitor: (n) => monitorOf(p, n),
      what: `a third http, a third tcp, the rest over ${NEW_TYPES.join(", ")} (loopback peers; redis: the local Redis); target p99 < 2000 ms, CPU < 25%`,
    });
  } finally {
    await p.close();
  }
}
