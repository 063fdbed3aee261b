// Real loopback peers for the monitor checks: an HTTP(S) server whose answers a test programs per path
// (the HTTPS one with a self-signed certificate made by openssl for the test), a TCP listener, and a
// DNS server (dns2) serving a small zone. Each answers on 127.0.0.1 or another 127.0.0.x address.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import dns2 from "dns2";

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (the socket stays open until the server closes). */
  hang?: boolean;
  delayMs?: number;
}

export type Handler = (req: IncomingMessage, body: string) => Answer;

export interface HttpPeer {
  url: string;
  port: number;
  /** Programs the answer for one path (query strings ignored). */
  on(path: string, answer: Answer | Handler): void;
  /** Requests seen: method, path, headers, body. */
  seen: { method: string; path: string; headers: IncomingMessage["headers"]; body: string }[];
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1/localhost valid `days` days (EC P-256: quick to make). */
export function selfSignedCert(days = 30): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "mon-cert-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
        "-days",
        String(days),
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost",
      ],
      { stdio: "ignore" },
    );
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startHttpPeer(options: { tls?: { key: string; cert: string }; host?: string } = {}): Promise<HttpPeer> {
  const routes = new Map<string, Answer | Handler>();
  const seen: HttpPeer["seen"] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      seen.push({ method: req.method ?? "", path, headers: req.headers, body });
      const route = routes.get(path) ?? { status: 404, body: "not found" };
      const answer = typeof route === "function" ? route(req, body) : route;
      if (answer.hang) return;
      const send = () => {
        res.writeHead(answer.status ?? 200, answer.headers ?? { "content-type": "text/plain" });
        res.end(answer.body ?? "");
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  };
  const server: Server = options.tls ? createHttpsServer(options.tls, handle) : createHttpServer(handle);
  server.on("connection", (s: Socket) => {
    accepted++;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `${options.tls ? "https" : "http"}://${host}:${port}`,
    port,
    on: (path, answer) => void routes.set(path, answer),
    seen,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface TcpPeer {
  port: number;
  accepted: number;
  close(): Promise<void>;
}

/** Accepts and closes each connection; `silent`: accepts and holds it, never writing. */
export async function startTcpPeer(host = "127.0.0.1", options: { silent?: boolean } = {}): Promise<TcpPeer> {
  const sockets = new Set<Socket>();
  const peer = { port: 0, accepted: 0, close: async () => {} };
  const server: TcpServer = createTcpServer((s) => {
    peer.accepted++;
    sockets.add(s);
    s.on("error", () => {});
    s.on("close", () => sockets.delete(s));
    if (!options.silent) s.end();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  peer.port = (server.address() as { port: number }).port;
  peer.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return peer;
}

/** A port nothing listens on (bound, then released). */
export { freePort as closedPort } from "../../helpers/free-port.ts";

export type Zone = Record<
  string,
  { A?: string[]; MX?: { exchange: string; priority: number }[]; TXT?: string[]; CNAME?: string; PTR?: string }
>;

export interface DnsPeer {
  address: string;
  port: number;
  close(): Promise<void>;
}

/** A DNS server on `address` (UDP) answering from `zone`; unknown names get NXDOMAIN; names under `hang.` get no answer. */
export async function startDnsPeer(zone: Zone, address = "127.0.0.53"): Promise<DnsPeer> {
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (!question) return send(response);
      const name = question.name.toLowerCase();
      if (name.startsWith("hang.")) return;
      const entry = zone[name];
      if (!entry) {
        response.header.rcode = 3;
        return send(response);
      }
      const base = { name: question.name, class: Packet.CLASS.IN, ttl: 60 };
      // dns2's types want encoded resources; its encoder takes these plain records.
      const answer = (record: Record<string, unknown>) => response.answers.push(record as never);
      if (question.type === Packet.TYPE.A) for (const a of entry.A ?? []) answer({ ...base, type: Packet.TYPE.A, address: a });
      if (question.type === Packet.TYPE.MX)
        for (const m of entry.MX ?? []) answer({ ...base, type: Packet.TYPE.MX, exchange: m.exchange, priority: m.priority });
      if (question.type === Packet.TYPE.TXT) for (const t of entry.TXT ?? []) answer({ ...base, type: Packet.TYPE.TXT, data: t });
      if (question.type === Packet.TYPE.CNAME && entry.CNAME) answer({ ...base, type: Packet.TYPE.CNAME, domain: entry.CNAME });
      if (question.type === Packet.TYPE.PTR && entry.PTR) answer({ ...base, type: Packet.TYPE.PTR, domain: entry.PTR });
      send(response);
    },
  });
  const listening = new Promise<void>((resolve) => server.on("listening", () => resolve()));
  await server.listen({ udp: { port: 0, address } });
  await listening;
  const addresses = server.addresses() as { udp?: { port: number } };
  return { address, port: addresses.udp?.port ?? 0, close: () => server.close() as Promise<void> };
}

/** A TCP listener that accepts and never says a word (a database that hangs before its greeting). */
export const startSilentPeer = (host = "127.0.0.1"): Promise<TcpPeer> => startTcpPeer(host, { silent: true });
