// A loopback HTTP receiver with programmable answers that records every request (method, path, headers,
// body): the stand-in for a notification provider's endpoint.
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
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
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
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  peer.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  return peer;
}
