// The RFC 2136 UPDATE and TSIG code (runtime/acme/dns/wire.ts, rfc2136.ts) against what BIND does not
// send: a fake DNS server on G2's loopback address 127.0.0.158 answering NOERROR unsigned, signed with
// another key, or under another message id. Each must be refused (a forged NOERROR would let an order go
// on with no record); the wire layout of an UPDATE is checked against RFC 2136 2.2-2.5.
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rfc2136Provider } from "../../../runtime/acme/dns/rfc2136.ts";
import { buildTxtUpdate, parseMessage, signMessage, TYPE, txtValue } from "../../../runtime/acme/dns/wire.ts";
import type { ApiError } from "../../../shared/errors.ts";

const HOST = "127.0.0.158";
const SECRET = Buffer.from("a 32 byte test secret for tsig!!").toString("base64");
const OPEN_POLICY = { allow_private: true, allow_loopback: true, allow_link_local: false };

type Mode = "unsigned" | "other-key" | "other-id";
let mode: Mode = "unsigned";
let server: Server;
let port = 0;

/** An answer to `query`: the header with QR set and `rcode`, the question/zone section kept, with `soa` the zone's SOA. */
function answer(query: Buffer, rcode: number, soa: boolean): Buffer {
  const out = Buffer.from(query);
  out.writeUInt16BE(((query.readUInt16BE(2) | 0x8000 | 0x0400) & 0xfff0) | rcode, 2);
  const parsed = parseMessage(query);
  const end = [...parsed.answers, ...parsed.authority, ...parsed.additional][0]?.start ?? query.length;
  const body = Buffer.from(out.subarray(0, end));
  body.writeUInt16BE(0, 6);
  body.writeUInt16BE(0, 8);
  body.writeUInt16BE(0, 10);
  if (soa) {
    // "fake.test. SOA" in the authority section (a name below the zone: NXDOMAIN with the zone's SOA).
    const record = Buffer.concat([
      Buffer.from([4, ...Buffer.from("fake"), 4, ...Buffer.from("test"), 0]),
      Buffer.from([0, 6, 0, 1, 0, 0, 0, 60, 0, 22]),
      Buffer.from([0, 0, 0, 0, 0, 1, 0, 0, 0, 60, 0, 0, 0, 60, 0, 0, 2, 88, 0, 0, 0, 60]),
    ]);
    body.writeUInt16BE(1, 8);
    return Buffer.concat([body, record]);
  }
  return body;
}

beforeAll(async () => {
  server = createServer((socket) => {
    let buf = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length < 2 || buf.length < 2 + buf.readUInt16BE(0)) return;
      const query = buf.subarray(2, 2 + buf.readUInt16BE(0));
      const isUpdate = ((query.readUInt16BE(2) >> 11) & 0xf) === 5;
      let reply = isUpdate ? answer(query, 0, false) : answer(query, 3, true);
      if (isUpdate && mode === "other-key")
        reply = signMessage(
          reply,
          { name: "acme.", algorithm: "hmac-sha256", secret: Buffer.from("another secret entirely, 32 byte") },
          Math.floor(Date.now() / 1000),
        ).signed;
      if (isUpdate && mode === "other-id") reply.writeUInt16BE((reply.readUInt16BE(0) + 1) & 0xffff, 0);
      const prefix = Buffer.alloc(2);
      prefix.writeUInt16BE(reply.length);
      socket.end(Buffer.concat([prefix, reply]));
    });
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, HOST, resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const provider = () =>
  rfc2136Provider(
    { server: HOST, port, tsig_name: "acme.", tsig_algorithm: "hmac-sha256", tsig_secret: SECRET },
    { policy: OPEN_POLICY, timeoutMs: 3000 },
  );
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a refusal");
    },
    (e: unknown) => e as ApiError,
  );

describe("RFC 2136 answers that must not be trusted", () => {
  it.each([
    ["unsigned", "answered NOERROR but the answer is not signed"],
    ["other-key", "answered NOERROR but the answer's TSIG signature does not verify"],
    ["other-id", "answered another message id"],
  ] as const)("refuses a NOERROR that is %s with 502", async (which, message) => {
    mode = which;
    const err = await refusal(provider().present("_acme-challenge.www.fake.test", "digest-value"));
    expect(err.status).toBe(502);
    expect(err.detail).toContain(message);
    expect(err.extra).toMatchObject({ dns_provider: "rfc2136", dns_server: `${HOST}:${port}` });
  });

  it("answers 502 naming the server when nothing listens", async () => {
    const closed = rfc2136Provider(
      { server: HOST, port: 1, tsig_name: "acme.", tsig_algorithm: "hmac-sha256", tsig_secret: SECRET },
      { policy: OPEN_POLICY, timeoutMs: 3000 },
    );
    const err = await refusal(closed.present("_acme-challenge.www.fake.test", "v"));
    expect(err.status).toBe(502);
    expect(err.detail).toMatch(/127\.0\.0\.158:1: ECONNREFUSED/);
  });
});

describe("UPDATE wire layout (RFC 2136 2.2-2.5)", () => {
  it("adds with class IN and the TTL, deletes the one value with class NONE and TTL 0, zone section SOA", () => {
    for (const [op, cls, ttl] of [
      ["add", 1, 60],
      ["delete", 254, 0],
    ] as const) {
      const msg = buildTxtUpdate(0x1234, "example.test.", "_acme-challenge.Example.test", "v4lue", op);
      expect(msg.readUInt16BE(0)).toBe(0x1234);
      expect((msg.readUInt16BE(2) >> 11) & 0xf).toBe(5);
      expect([msg.readUInt16BE(4), msg.readUInt16BE(6), msg.readUInt16BE(8), msg.readUInt16BE(10)]).toEqual([1, 0, 1, 0]);
      const parsed = parseMessage(Buffer.concat([msg]));
      // Parsed as a query: the zone is the one "question"; the update is in the third section.
      const update = parsed.authority[0]!;
      expect(update).toMatchObject({ name: "_acme-challenge.example.test", type: TYPE.TXT, cls, ttl });
      expect(txtValue(parsed, update)).toBe("v4lue");
    }
  });

  it("signs with a TSIG record appended and ARCOUNT raised", () => {
    const msg = buildTxtUpdate(7, "example.test", "_acme-challenge.example.test", "v", "add");
    const { signed, mac } = signMessage(
      msg,
      { name: "acme.", algorithm: "hmac-sha512", secret: Buffer.from(SECRET, "base64") },
      1_700_000_000,
    );
    expect(mac).toHaveLength(64);
    const parsed = parseMessage(signed);
    expect(parsed.additional).toHaveLength(1);
    expect(parsed.additional[0]).toMatchObject({ name: "acme", type: TYPE.TSIG, cls: 255, ttl: 0 });
  });
});
