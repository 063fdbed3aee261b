// The link's frames over a real Noise IK pair: round trips in both directions, the envelope checks, the
// seq rule, the size cap, and a rekey that both ends take at the same message.
import { describe, expect, it } from "vitest";
import { FrameChannel } from "../../../shared/agents/frame-channel.ts";
import {
  AGENT_FRAME_TYPES,
  decodeFrame,
  encodeFrame,
  FrameError,
  MAX_FRAME_BYTES,
  SERVER_FRAME_TYPES,
} from "../../../shared/agents/frames.ts";
import { generateKeyPair, initiator, NoiseError, responder } from "../../../shared/noise/index.ts";

function pair() {
  const server = generateKeyPair();
  const agent = initiator({ s: generateKeyPair().secretKey, rs: server.publicKey });
  const resp = responder({ s: server.secretKey });
  resp.readMessage(agent.writeMessage());
  agent.readMessage(resp.writeMessage());
  const agentTransport = agent.split();
  return {
    agentTransport,
    agent: new FrameChannel(agentTransport, SERVER_FRAME_TYPES),
    server: new FrameChannel(resp.split(), AGENT_FRAME_TYPES),
  };
}

const bytes = (text: string) => new TextEncoder().encode(text);
const reason = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err instanceof FrameError ? err.reason : (err as Error).name;
  }
  return "accepted";
};

describe("frames", () => {
  it("round-trip with increasing seq both ways", () => {
    const { agent, server } = pair();
    const ts = new Date("2026-11-24T10:00:00.000Z");
    expect(server.open(agent.seal("hello", { hostname: "h" }, ts))).toEqual({
      v: 1,
      type: "hello",
      seq: 0,
      ts: ts.toISOString(),
      payload: { hostname: "h" },
    });
    expect(server.open(agent.seal("heartbeat", {})).seq).toBe(1);
    expect(agent.open(server.seal("ping", { ack_seq: 1 })).payload).toEqual({ ack_seq: 1 });
  });

  it("refuses what is not a frame: bad JSON, wrong version, unknown type, bad seq or ts, a payload that is not an object", () => {
    const types = AGENT_FRAME_TYPES;
    const ok = { v: 1, type: "hello", seq: 0, ts: "2026-11-24T10:00:00Z", payload: {} };
    expect(reason(() => decodeFrame(bytes("{"), types))).toBe("malformed");
    expect(reason(() => decodeFrame(new Uint8Array([0xff, 0xfe]), types))).toBe("malformed");
    expect(reason(() => decodeFrame(bytes("[]"), types))).toBe("malformed");
    expect(reason(() => decodeFrame(bytes(JSON.stringify({ ...ok, v: 2 })), types))).toBe("malformed");
    expect(reason(() => decodeFrame(bytes(JSON.stringify({ ...ok, type: "ping" })), types))).toBe("unknown_type");
    expect(reason(() => decodeFrame(bytes(JSON.stringify({ ...ok, seq: -1 })), types))).toBe("malformed");
    expect(reason(() => decodeFrame(bytes(JSON.stringify({ ...ok, seq: 1.5 })), types))).toBe("malformed");
    expect(reason(() => decodeFrame(bytes(JSON.stringify({ ...ok, ts: "2026-11-24 10:00:00" })), types))).toBe("malformed");
    expect(reason(() => decodeFrame(bytes(JSON.stringify({ ...ok, payload: [1] })), types))).toBe("malformed");
    expect(reason(() => decodeFrame(bytes(JSON.stringify(ok)), types))).toBe("accepted");
  });

  it("keeps every frame inside one Noise message", () => {
    expect(reason(() => encodeFrame("log", 0, new Date(), { msg: "x".repeat(MAX_FRAME_BYTES) }))).toBe("too_large");
    const { agent } = pair();
    expect(reason(() => agent.seal("log", { msg: "x".repeat(MAX_FRAME_BYTES) }))).toBe("too_large");
    expect(agent.nextSeq).toBe(0);
  });

  it("refuses a replayed or decreasing seq", () => {
    const { agent, server } = pair();
    const first = agent.seal("heartbeat", {});
    server.open(first);
    // A replay of the same ciphertext fails Noise first (the nonce moved on): the link must close either way.
    expect(reason(() => server.open(first))).toBe("NoiseError");
  });

  it("refuses a seq that does not increase even when the ciphertext is fresh", () => {
    const { agent, agentTransport, server } = pair();
    server.open(agent.seal("heartbeat", {}));
    server.open(agent.seal("heartbeat", {}));
    // A peer that numbers its frames wrongly: seq 1 again, then 0, each under a valid nonce.
    expect(reason(() => server.open(agentTransport.send.encrypt(encodeFrame("heartbeat", 1, new Date(), {}))))).toBe("bad_seq");
    expect(reason(() => server.open(agentTransport.send.encrypt(encodeFrame("heartbeat", 0, new Date(), {}))))).toBe("bad_seq");
    expect(server.open(agentTransport.send.encrypt(encodeFrame("heartbeat", 7, new Date(), {}))).seq).toBe(7);
  });

  it("rekeys both ends at the same message", () => {
    const { agent, server } = pair();
    server.open(agent.seal("heartbeat", {}));
    expect(server.open(agent.sealRekey()).payload).toEqual({ direction: "outbound", generation: 1 });
    expect(server.open(agent.seal("heartbeat", { after: true })).payload).toEqual({ after: true });
    expect(agent.open(server.sealRekey()).type).toBe("transport.rekey");
    expect(agent.open(server.seal("ping", {})).type).toBe("ping");
  });

  it("a receiving side that missed the rekey cannot read on", () => {
    const { agent, server } = pair();
    agent.sealRekey(); // lost in transit: the server never rekeys
    expect(() => server.open(agent.seal("heartbeat", {}))).toThrow(NoiseError);
  });
});
