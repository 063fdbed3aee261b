// The cacophony vectors of Noise_IK_25519_ChaChaPoly_SHA256 (spec/noise-ik-25519-chachapoly-sha256.json):
// each side is run on its own against the published bytes, writing its messages byte for byte and reading
// the other side's, then both sides together. Messages 1 and 2 are the handshake; 3 to 6 are transport
// messages alternating initiator -> responder, responder -> initiator. Every vector runs twice: with the
// runtime-neutral X25519 (@noble) and with Node's native one (net/node-x25519.ts) the sidecar and the agent use.
import { readFileSync } from "node:fs";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import { nodeX25519 } from "../../../net/node-x25519.ts";
import { initiator, keyPairOf, nobleX25519, PROTOCOL_NAME, responder, type Transport, type X25519 } from "../../../shared/noise/index.ts";

interface Vector {
  protocol_name: string;
  init_prologue: string;
  init_static: string;
  init_ephemeral: string;
  init_remote_static: string;
  resp_prologue: string;
  resp_static: string;
  resp_ephemeral: string;
  handshake_hash: string;
  messages: { payload: string; ciphertext: string }[];
}

const file = JSON.parse(readFileSync(new URL("../../../spec/noise-ik-25519-chachapoly-sha256.json", import.meta.url), "utf8")) as {
  vectors: Vector[];
};
const vectors = file.vectors.filter((v) => v.protocol_name === PROTOCOL_NAME);

const hex = (bytes: Uint8Array) => bytesToHex(bytes);

function sides(v: Vector, x25519: X25519) {
  return {
    agent: initiator({
      s: hexToBytes(v.init_static),
      rs: hexToBytes(v.init_remote_static),
      prologue: hexToBytes(v.init_prologue),
      e: hexToBytes(v.init_ephemeral),
      x25519,
    }),
    server: responder({ s: hexToBytes(v.resp_static), prologue: hexToBytes(v.resp_prologue), e: hexToBytes(v.resp_ephemeral), x25519 }),
  };
}

const IMPLEMENTATIONS: [string, X25519][] = [
  ["@noble X25519", nobleX25519],
  ["Node's native X25519", nodeX25519],
];

/** Transport message i (from 2) goes initiator -> responder when i is even. */
const fromInitiator = (i: number) => i % 2 === 0;

describe("Noise_IK_25519_ChaChaPoly_SHA256 against the cacophony vectors", () => {
  it("the vectors file holds the IK vector with two handshake and four transport messages", () => {
    expect(vectors.length).toBeGreaterThan(0);
    for (const v of vectors) {
      expect(v.messages.length).toBe(6);
      // The name is exactly HASHLEN bytes: h starts as the name itself, unpadded and unhashed.
      expect(new TextEncoder().encode(v.protocol_name).length).toBe(32);
      // The initiator's pre-known remote key is the responder's public key.
      expect(hex(keyPairOf(hexToBytes(v.resp_static)).publicKey)).toBe(v.init_remote_static);
    }
  });

  for (const [name, x25519] of IMPLEMENTATIONS)
    for (const [n, v] of vectors.entries()) {
      const messages = v.messages.map((m) => ({ payload: hexToBytes(m.payload), ciphertext: hexToBytes(m.ciphertext) }));
      const message = (i: number) => messages[i]!;

      it(`${name}, vector ${n}: the initiator writes messages 1, 3, 5 byte for byte and reads 2, 4, 6`, () => {
        const { agent } = sides(v, x25519);
        expect(hex(agent.writeMessage(message(0).payload))).toBe(v.messages[0]!.ciphertext);
        expect(hex(agent.readMessage(message(1).ciphertext))).toBe(v.messages[1]!.payload);
        const link = agent.split();
        expect(hex(link.handshakeHash)).toBe(v.handshake_hash);
        for (let i = 2; i < messages.length; i++) {
          if (fromInitiator(i)) expect(hex(link.send.encrypt(message(i).payload))).toBe(v.messages[i]!.ciphertext);
          else expect(hex(link.receive.decrypt(message(i).ciphertext))).toBe(v.messages[i]!.payload);
        }
      });

      it(`${name}, vector ${n}: the responder reads messages 1, 3, 5 and writes 2, 4, 6 byte for byte`, () => {
        const { server } = sides(v, x25519);
        expect(server.remoteStaticKey).toBeUndefined();
        expect(hex(server.readMessage(message(0).ciphertext))).toBe(v.messages[0]!.payload);
        // The server learns the agent's static key from message 1, before it answers.
        expect(hex(server.remoteStaticKey!)).toBe(hex(keyPairOf(hexToBytes(v.init_static), x25519).publicKey));
        expect(hex(server.writeMessage(message(1).payload))).toBe(v.messages[1]!.ciphertext);
        const link = server.split();
        expect(hex(link.handshakeHash)).toBe(v.handshake_hash);
        for (let i = 2; i < messages.length; i++) {
          if (fromInitiator(i)) expect(hex(link.receive.decrypt(message(i).ciphertext))).toBe(v.messages[i]!.payload);
          else expect(hex(link.send.encrypt(message(i).payload))).toBe(v.messages[i]!.ciphertext);
        }
      });

      it(`${name}, vector ${n}: each message one side writes, the other reads back, in both directions`, () => {
        const { agent, server } = sides(v, x25519);
        const m1 = agent.writeMessage(message(0).payload);
        expect(hex(m1)).toBe(v.messages[0]!.ciphertext);
        expect(hex(server.readMessage(m1))).toBe(v.messages[0]!.payload);
        const m2 = server.writeMessage(message(1).payload);
        expect(hex(m2)).toBe(v.messages[1]!.ciphertext);
        expect(hex(agent.readMessage(m2))).toBe(v.messages[1]!.payload);

        const links: { agent: Transport; server: Transport } = { agent: agent.split(), server: server.split() };
        expect(hex(links.agent.handshakeHash)).toBe(v.handshake_hash);
        expect(hex(links.server.handshakeHash)).toBe(v.handshake_hash);
        for (let i = 2; i < messages.length; i++) {
          const [writer, reader] = fromInitiator(i) ? [links.agent, links.server] : [links.server, links.agent];
          const sent = writer.send.encrypt(message(i).payload);
          expect(hex(sent)).toBe(v.messages[i]!.ciphertext);
          expect(hex(reader.receive.decrypt(sent))).toBe(v.messages[i]!.payload);
        }
        expect([links.agent.send.nonce, links.agent.receive.nonce, links.server.send.nonce, links.server.receive.nonce]).toEqual([
          2n,
          2n,
          2n,
          2n,
        ]);
      });
    }
});

describe("Node's native X25519 agrees with @noble's", () => {
  it("on public keys and shared secrets of random keys, and refuses a low-order public key", () => {
    const random = () => crypto.getRandomValues(new Uint8Array(32));
    for (let i = 0; i < 20; i++) {
      const [a, b] = [random(), random()];
      const [na, nb] = [nodeX25519.keyPair(a), nobleX25519.keyPair(b)];
      expect(hex(na.publicKey)).toBe(hex(nobleX25519.keyPair(a).publicKey));
      expect(hex(nodeX25519.sharedSecret(na, nb.publicKey))).toBe(hex(nobleX25519.sharedSecret(nb, na.publicKey)));
      // A pair made by the other implementation works too (no prepared key object).
      expect(hex(nodeX25519.sharedSecret(nobleX25519.keyPair(a), nb.publicKey))).toBe(hex(nodeX25519.sharedSecret(na, nb.publicKey)));
    }
    // The point of order 1 (all zeros, u = 0): X25519 with it is all zeros, which both refuse.
    const secret = random();
    expect(() => nodeX25519.sharedSecret(nodeX25519.keyPair(secret), new Uint8Array(32))).toThrow();
    expect(() => nobleX25519.sharedSecret(nobleX25519.keyPair(secret), new Uint8Array(32))).toThrow();
  });
});
