// Fake hosts for the scan engine's tests, all on 127.0.x.y: TCP listeners that greet, stay silent or
// speak TLS with a fixture certificate, a black hole (listeners whose accept queue is full, so a
// connect gets no answer at all), a UDP server that never answers, and counters of what this process
// still holds open (sockets, child processes) after a scan.
import { execFileSync, spawn } from "node:child_process";
import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { readFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";

export const TLS_FIXTURE = {
  cert: readFileSync(new URL("../../fixtures/discovery/tls-cert.pem", import.meta.url), "utf8"),
  key: readFileSync(new URL("../../fixtures/discovery/tls-key.pem", import.meta.url), "utf8"),
};

export interface Peer {
  host: string;
  port: number;
  /** Connections currently open on the peer's side. */
  open(): number;
  close(): Promise<void>;
}

async function serve(server: Server, host: string, port: number): Promise<Peer> {
  const sockets = new Set<Socket>();
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("error", () => {});
    // Reading (and dropping) what the client sends lets the peer see the client close.
    s.resume();
    s.on("close", () => sockets.delete(s));
  });
  server.on("secureConnection", (s: Socket) => s.on("error", () => {}));
  server.on("tlsClientError", () => {});
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return {
    host,
    port: (server.address() as { port: number }).port,
    open: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Says `greeting` on connect and keeps the connection open. */
export function greetingPeer(host: string, greeting: string, port = 0): Promise<Peer> {
  return serve(
    createServer((s) => s.write(greeting)),
    host,
    port,
  );
}

/** Answers whatever the client sends first with `answer`, then closes (a minimal HTTP/1.0-style server). */
export function answeringPeer(host: string, answer: string, port = 0): Promise<Peer> {
  return serve(
    createServer((s) => s.once("data", () => s.end(answer))),
    host,
    port,
  );
}

/** Accepts and never says a word. */
export function silentPeer(host: string, port = 0): Promise<Peer> {
  return serve(
    createServer(() => {}),
    host,
    port,
  );
}

/** TLS with the fixture certificate; closes once the client sends anything after the handshake. */
export function tlsPeer(host: string, port = 0): Promise<Peer> {
  return serve(
    createTlsServer(TLS_FIXTURE, (s) => s.on("data", () => s.destroy())),
    host,
    port,
  );
}

/** A UDP port that swallows every datagram (a DNS server that never answers). */
export async function mutedUdp(host: string): Promise<{ port: number; close(): Promise<void> }> {
  const socket: UdpSocket = createSocket("udp4");
  socket.on("message", () => {});
  await new Promise<void>((resolve) => socket.bind(0, host, resolve));
  return { port: socket.address().port, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}

export const havePython = (() => {
  try {
    execFileSync("python3", ["-c", "pass"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

// Node accepts every connection it can, so the black hole is a small python3 process: a listener per
// address with a backlog of 0 whose one queue slot it fills itself; later SYNs are dropped unanswered.
const BLACK_HOLE = `
import socket, sys, time
ports = [int(p) for p in sys.argv[1].split(",")]; keep = []
for host in sys.argv[2:]:
  for port in ports:
    s = socket.socket(); s.bind((host, port)); s.listen(0)
    c = socket.socket(); c.setblocking(False); c.connect_ex((host, port))
    keep += [s, c]
time.sleep(0.2)
print("ready", flush=True)
sys.stdin.read()
`;

/** Connects to `ports` on each of `hosts` hang until the caller gives up (as to a firewall that drops them). */
export async function blackHole(hosts: string[], ports: number | number[]): Promise<{ close(): void }> {
  const child = spawn("python3", ["-c", BLACK_HOLE, [ports].flat().join(","), ...hosts], { stdio: ["pipe", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the black hole exited with ${code}`)));
    child.stdout.once("data", () => resolve());
  });
  return { close: () => void child.kill("SIGKILL") };
}

/** TCP client sockets this process holds (listeners are TCPServerWrap, not counted). */
export function openTcpSockets(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap").length;
}

/** The TCP client sockets left once closing handles are gone (a destroyed socket's handle closes on the next loop turn). */
export async function tcpSocketsAfterClose(expected: number): Promise<number> {
  for (let i = 0; i < 20 && openTcpSockets() !== expected; i++) await sleep(10);
  return openTcpSockets();
}

/** Names of this process's child processes still running. */
export function childCommands(): string[] {
  try {
    return execFileSync("ps", ["--ppid", String(process.pid), "-o", "comm="], { encoding: "utf8" })
      .split("\n")
      .map((s) => s.trim())
      .filter((s) => s && s !== "ps");
  } catch {
    return []; // ps exits 1 when there is no child
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
