// A loopback HTTP receiver with programmable answers that records every request (method, path, headers,
// body): the stand-in for a notification provider's endpoint.
//
// Its URL carries a random path prefix, and only requests under it are recorded (with the prefix taken off):
// tests run in parallel on one loopback, and a port this peer took may have been another test's target a
// moment ago (an HTTP monitor still polling it), whose stray GET would otherwise count as a delivery.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface Peer {
  url: string;
  received: Received[];
  /** Answers request number n (0-based) of this peer. */
  answer: (n: number, r: Received) => { status: number; body?: string; contentType?: string | null; delayMs?: number } | "hang";
  close(): Promise<void>;
}

export async function startPeer(answer: Peer["answer"] = () => ({ status: 200 })): Promise<Peer> {
  const peer: Peer = { url: "", received: [], answer, close: async () => {} };
  const hanging = new Set<import("node:http").ServerResponse>();
  const prefix = `/peer-${randomBytes(6).toString("hex")}`;
  const server: Server = createServer((req, res) => {
    const path = req.url ?? "";
    if (path !== prefix && !path.startsWith(`${prefix}/`) && !path.startsWith(`${prefix}?`)) {
      res.statusCode = 404;
      return void res.end();
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = {
        method: req.method ?? "",
        url: `/${path.slice(prefix.length).replace(/^\//, "")}`,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      const n = peer.received.push(r) - 1;
      const a = peer.answer(n, r);
      if (a === "hang") return void hanging.add(res);
      const reply = () => {
        if (a.contentType) res.setHeader("content-type", a.contentType);
        res.statusCode = a.status;
        res.end(a.body ?? "");
      };
      // A slow receiver (the delivery benchmark's): held like a hanging one until it answers.
      if (a.delayMs) {
        hanging.add(res);
        setTimeout(() => {
          hanging.delete(res);
          if (!res.destroyed) reply();
        }, a.delayMs).unref();
      } else reply();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}`;
  peer.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  return peer;
}
