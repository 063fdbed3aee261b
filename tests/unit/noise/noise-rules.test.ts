// The rules around the handshake and the transport beyond the vectors: tampering, order, nonce
// exhaustion, rekey, random ephemerals with the production (empty) prologue, and the 65535-byte limit.
// Independent references are @noble's primitives used directly.
import { chacha20poly1305 } from "@noble/ciphers/chacha.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import {
  CipherState,
  generateKeyPair,
  initiator,
  MAX_MESSAGE,
  MAX_NONCE,
  NoiseError,
  type NoiseErrorReason,
  ReceiveCipher,
  responder,
  SendCipher,
  type Transport,
} from "../../../shared/noise/index.ts";

const agentKeys = generateKeyPair();
const serverKeys = generateKeyPair();
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

/** A fresh pair of handshakes as production runs them: random ephemerals, empty prologue. */
function handshakes(options: { agentE?: Uint8Array; serverE?: Uint8Array } = {}) {
  return {
    agent: initiator({ s: agentKeys.secretKey, rs: serverKeys.publicKey, e: options.agentE }),
    server: responder({ s: serverKeys.secretKey, e: options.serverE }),
  };
}

/** A completed handshake: both sides' transports. */
function session(options: { agentE?: Uint8Array; serverE?: Uint8Array } = {}): { agent: Transport; server: Transport } {
  const { agent, server } = handshakes(options);
  server.readMessage(agent.writeMessage());
  agent.readMessage(server.writeMessage());
  return { agent: agent.split(), server: server.split() };
}

function noiseReason(run: () => unknown): NoiseErrorReason | "no error" {
  try {
    run();
    return "no error";
  } catch (err) {
    expect(err).toBeInstanceOf(NoiseError);
    return (err as NoiseError).reason;
  }
}

const flip = (message: Uint8Array, at: number, bit = 0x01) => {
  const copy = message.slice();
  copy[at]! ^= bit;
  return copy;
};

const cipherAt = (nonce: bigint) => {
  const c = new CipherState(new Uint8Array(32).fill(7));
  c.setNonce(nonce);
  return c;
};

describe("Noise IK: random ephemerals, empty prologue (production)", () => {
  it("completes the handshake and carries payloads both ways", () => {
    const { agent, server } = handshakes();
    expect(text(server.readMessage(agent.writeMessage(bytes("hello"))))).toBe("hello");
    expect(bytesToHex(server.remoteStaticKey!)).toBe(bytesToHex(agentKeys.publicKey));
    expect(text(agent.readMessage(server.writeMessage(bytes("hello.ack"))))).toBe("hello.ack");
    const [a, s] = [agent.split(), server.split()];
    expect(bytesToHex(a.handshakeHash)).toBe(bytesToHex(s.handshakeHash));
    for (let i = 0; i < 5; i++) {
      expect(text(s.receive.decrypt(a.send.encrypt(bytes(`heartbeat ${i}`))))).toBe(`heartbeat ${i}`);
      expect(text(a.receive.decrypt(s.send.encrypt(bytes(`ping ${i}`))))).toBe(`ping ${i}`);
    }
    // Empty payloads and associated data work too.
    expect(s.receive.decrypt(a.send.encrypt(new Uint8Array(0), bytes("ad")), bytes("ad"))).toEqual(new Uint8Array(0));
  });

  it("uses a fresh ephemeral key each time, so two sessions share nothing", () => {
    const one = handshakes().agent.writeMessage();
    const two = handshakes().agent.writeMessage();
    expect(bytesToHex(one.subarray(0, 32))).not.toBe(bytesToHex(two.subarray(0, 32)));
    const [a, b] = [session(), session()];
    expect(bytesToHex(a.agent.handshakeHash)).not.toBe(bytesToHex(b.agent.handshakeHash));
    expect(noiseReason(() => b.server.receive.decrypt(a.agent.send.encrypt(bytes("x"))))).toBe("bad-mac");
  });

  it("refuses a responder key the agent did not expect, and a prologue that differs", () => {
    const wrongServer = responder({ s: generateKeyPair().secretKey });
    expect(noiseReason(() => wrongServer.readMessage(handshakes().agent.writeMessage()))).toBe("bad-mac");
    const agent = initiator({ s: agentKeys.secretKey, rs: serverKeys.publicKey, prologue: bytes("v1") });
    expect(noiseReason(() => responder({ s: serverKeys.secretKey }).readMessage(agent.writeMessage()))).toBe("bad-mac");
  });

  it("refuses keys of the wrong length and low-order public keys", () => {
    expect(noiseReason(() => initiator({ s: new Uint8Array(31), rs: serverKeys.publicKey }))).toBe("bad-key");
    expect(noiseReason(() => initiator({ s: agentKeys.secretKey, rs: new Uint8Array(33) }))).toBe("bad-key");
    expect(noiseReason(() => responder({ s: serverKeys.secretKey, e: new Uint8Array(16) }))).toBe("bad-key");
    expect(noiseReason(() => initiator({ s: agentKeys.secretKey, rs: new Uint8Array(32) }).writeMessage())).toBe("bad-key");
    const message = handshakes().agent.writeMessage();
    message.fill(0, 0, 32); // a zero ephemeral key: X25519 with it gives all zeros
    expect(noiseReason(() => handshakes().server.readMessage(message))).toBe("bad-key");
  });
});

describe("Noise IK: tampering", () => {
  it("a tampered message 1 fails with a MAC error, wherever the change, and leaves no usable state", () => {
    const message = handshakes().agent.writeMessage(bytes("hello"));
    // The ephemeral key (bit 255 too, which X25519 ignores but h does not), the encrypted static key,
    // its tag, the payload and the payload's tag.
    for (const [at, bit] of [
      [0, 1],
      [31, 0x80],
      [40, 1],
      [70, 1],
      [80, 1],
      [message.length - 1, 1],
    ] as const) {
      const server = handshakes().server;
      expect(
        noiseReason(() => server.readMessage(flip(message, at, bit))),
        `byte ${at}`,
      ).toBe("bad-mac");
      expect(server.remoteStaticKey).toBeUndefined();
      expect(noiseReason(() => server.readMessage(message))).toBe("failed");
      expect(noiseReason(() => server.writeMessage())).toBe("failed");
      expect(noiseReason(() => server.split())).toBe("failed");
    }
  });

  it("a tampered message 2 fails with a MAC error and the initiator cannot split", () => {
    for (const at of [0, 32, 47]) {
      const { agent, server } = handshakes();
      server.readMessage(agent.writeMessage());
      const reply = server.writeMessage(bytes("ack"));
      expect(
        noiseReason(() => agent.readMessage(flip(reply, at))),
        `byte ${at}`,
      ).toBe("bad-mac");
      expect(noiseReason(() => agent.readMessage(reply))).toBe("failed");
      expect(noiseReason(() => agent.split())).toBe("failed");
    }
  });

  it("a tampered transport message fails with a MAC error and closes the receiving side", () => {
    const { agent, server } = session();
    const first = agent.send.encrypt(bytes("telemetry"));
    expect(noiseReason(() => server.receive.decrypt(flip(first, 3)))).toBe("bad-mac");
    expect(noiseReason(() => server.receive.decrypt(first))).toBe("failed");
    expect(noiseReason(() => server.receive.rekey())).toBe("failed");
    // Associated data is authenticated too.
    const other = session();
    expect(noiseReason(() => other.server.receive.decrypt(other.agent.send.encrypt(bytes("x"), bytes("a")), bytes("b")))).toBe("bad-mac");
  });
});

describe("Noise IK: order", () => {
  it("refuses handshake steps out of turn, and the handshake is over after one", () => {
    const cases: [string, (h: ReturnType<typeof handshakes>) => unknown][] = [
      ["initiator reads before writing", (h) => h.agent.readMessage(new Uint8Array(48))],
      [
        "initiator splits before message 2",
        (h) => {
          h.agent.writeMessage();
          h.agent.split();
        },
      ],
      [
        "initiator writes twice",
        (h) => {
          h.agent.writeMessage();
          h.agent.writeMessage();
        },
      ],
      ["responder writes before reading", (h) => h.server.writeMessage()],
      [
        "responder splits before writing",
        (h) => {
          h.server.readMessage(h.agent.writeMessage());
          h.server.split();
        },
      ],
      [
        "responder reads twice",
        (h) => {
          const m = h.agent.writeMessage();
          h.server.readMessage(m);
          h.server.readMessage(m);
        },
      ],
    ];
    for (const [name, run] of cases) {
      const h = handshakes();
      expect(
        noiseReason(() => run(h)),
        name,
      ).toBe("out-of-order");
    }
    const h = handshakes();
    expect(noiseReason(() => h.server.writeMessage())).toBe("out-of-order");
    expect(noiseReason(() => h.server.readMessage(h.agent.writeMessage()))).toBe("failed");
  });

  it("splits only once", () => {
    const { agent, server } = handshakes();
    server.readMessage(agent.writeMessage());
    agent.readMessage(server.writeMessage());
    agent.split();
    expect(noiseReason(() => agent.split())).toBe("out-of-order");
  });

  it("refuses transport messages reordered, replayed or sent the wrong way", () => {
    const reordered = session();
    reordered.agent.send.encrypt(bytes("0"));
    const second = reordered.agent.send.encrypt(bytes("1"));
    expect(noiseReason(() => reordered.server.receive.decrypt(second))).toBe("bad-mac");

    const replayed = session();
    const m = replayed.agent.send.encrypt(bytes("once"));
    expect(text(replayed.server.receive.decrypt(m))).toBe("once");
    expect(noiseReason(() => replayed.server.receive.decrypt(m))).toBe("bad-mac");

    // The two directions have different keys: a message reflected back to its sender fails.
    const reflected = session();
    expect(noiseReason(() => reflected.agent.receive.decrypt(reflected.agent.send.encrypt(bytes("echo"))))).toBe("bad-mac");
  });
});

describe("Noise CipherState: nonces", () => {
  it("encodes the nonce as 32 zero bits then 64 bits little-endian", () => {
    const key = new Uint8Array(32).fill(7);
    const c = cipherAt(0x0102030405060708n);
    const nonce = Uint8Array.of(0, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1);
    expect(bytesToHex(c.encryptWithAd(bytes("ad"), bytes("pt")))).toBe(
      bytesToHex(chacha20poly1305(key, nonce, bytes("ad")).encrypt(bytes("pt"))),
    );
    expect(c.nonce).toBe(0x0102030405060709n);
  });

  it("refuses to use 2^64-1: the last message is sent at 2^64-2, then the direction is spent", () => {
    const send = new SendCipher(cipherAt(MAX_NONCE - 1n));
    const receive = new ReceiveCipher(cipherAt(MAX_NONCE - 1n));
    const last = send.encrypt(bytes("last"));
    expect(text(receive.decrypt(last))).toBe("last");
    expect(send.nonce).toBe(MAX_NONCE);
    expect(noiseReason(() => send.encrypt(bytes("one more")))).toBe("nonce-exhausted");
    expect(noiseReason(() => send.encrypt(bytes("one more")))).toBe("nonce-exhausted");
    // Rekey does not reset the nonce, so it does not revive a spent direction.
    send.rekey();
    expect(noiseReason(() => send.encrypt(bytes("after rekey")))).toBe("nonce-exhausted");
    expect(noiseReason(() => receive.decrypt(last))).toBe("nonce-exhausted");
    expect(() => cipherAt(MAX_NONCE + 1n)).toThrow(RangeError);
  });

  it("leaves the nonce where it was after a bad MAC (CipherState, section 5.1)", () => {
    const c = cipherAt(5n);
    expect(noiseReason(() => c.decryptWithAd(new Uint8Array(0), new Uint8Array(20)))).toBe("bad-mac");
    expect(c.nonce).toBe(5n);
  });

  it("passes data through before it has a key", () => {
    const c = new CipherState();
    expect(c.hasKey()).toBe(false);
    expect(c.encryptWithAd(bytes("ad"), bytes("plain"))).toEqual(bytes("plain"));
    expect(c.nonce).toBe(0n);
    expect(() => new SendCipher(new CipherState())).toThrow(NoiseError);
  });
});

describe("Noise CipherState: rekey", () => {
  it("computes REKEY(k) as the first 32 bytes of ENCRYPT(k, 2^64-1, empty, 32 zeros), keeping n", () => {
    const key = new Uint8Array(32).fill(7);
    const c = cipherAt(3n);
    c.rekey();
    expect(c.nonce).toBe(3n);
    const maxNonce = Uint8Array.of(0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
    const newKey = chacha20poly1305(key, maxNonce, new Uint8Array(0)).encrypt(new Uint8Array(32)).slice(0, 32);
    const nonce3 = Uint8Array.of(0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0);
    expect(bytesToHex(c.encryptWithAd(new Uint8Array(0), bytes("x")))).toBe(
      bytesToHex(chacha20poly1305(newKey, nonce3).encrypt(bytes("x"))),
    );
  });

  it("after both sides rekey a direction, messages still decrypt, under a new key", () => {
    // Two identical sessions (the same injected ephemerals): one rekeys, the twin does not.
    const keys = { agentE: generateKeyPair().secretKey, serverE: generateKeyPair().secretKey };
    const [rekeyed, twin] = [session(keys), session(keys)];
    for (const s of [rekeyed, twin]) expect(text(s.server.receive.decrypt(s.agent.send.encrypt(bytes("before"))))).toBe("before");

    rekeyed.agent.send.rekey();
    rekeyed.server.receive.rekey();
    const after = rekeyed.agent.send.encrypt(bytes("after"));
    const unchanged = twin.agent.send.encrypt(bytes("after"));
    expect(bytesToHex(after)).not.toBe(bytesToHex(unchanged)); // same plaintext, same nonce: the key changed
    expect(text(rekeyed.server.receive.decrypt(after))).toBe("after");
    expect(text(twin.server.receive.decrypt(unchanged))).toBe("after");

    // Each direction rekeys on its own: the other direction is untouched.
    expect(text(rekeyed.agent.receive.decrypt(rekeyed.server.send.encrypt(bytes("reply"))))).toBe("reply");
    rekeyed.server.send.rekey();
    rekeyed.agent.receive.rekey();
    expect(text(rekeyed.agent.receive.decrypt(rekeyed.server.send.encrypt(bytes("reply 2"))))).toBe("reply 2");
  });

  it("after only one side rekeys, decryption fails", () => {
    const senderOnly = session();
    senderOnly.agent.send.rekey();
    expect(noiseReason(() => senderOnly.server.receive.decrypt(senderOnly.agent.send.encrypt(bytes("x"))))).toBe("bad-mac");
    const receiverOnly = session();
    receiverOnly.agent.receive.rekey();
    expect(noiseReason(() => receiverOnly.agent.receive.decrypt(receiverOnly.server.send.encrypt(bytes("x"))))).toBe("bad-mac");
  });
});

describe("Noise: the 65535-byte message limit", () => {
  it("handshake messages: up to 65535 bytes are written and read, one more is refused", () => {
    const { agent, server } = handshakes();
    const m1 = agent.writeMessage(new Uint8Array(MAX_MESSAGE - 96));
    expect(m1.length).toBe(MAX_MESSAGE);
    expect(server.readMessage(m1).length).toBe(MAX_MESSAGE - 96);
    const m2 = server.writeMessage(new Uint8Array(MAX_MESSAGE - 48));
    expect(m2.length).toBe(MAX_MESSAGE);
    expect(agent.readMessage(m2).length).toBe(MAX_MESSAGE - 48);

    expect(noiseReason(() => handshakes().agent.writeMessage(new Uint8Array(MAX_MESSAGE - 96 + 1)))).toBe("too-large");
    const h = handshakes();
    h.server.readMessage(h.agent.writeMessage());
    expect(noiseReason(() => h.server.writeMessage(new Uint8Array(MAX_MESSAGE - 48 + 1)))).toBe("too-large");
    expect(noiseReason(() => handshakes().server.readMessage(new Uint8Array(MAX_MESSAGE + 1)))).toBe("too-large");
  });

  it("transport messages: 65519 bytes of plaintext fit, one more is refused without spending a nonce", () => {
    const { agent, server } = session();
    const full = agent.send.encrypt(new Uint8Array(MAX_MESSAGE - 16).fill(1));
    expect(full.length).toBe(MAX_MESSAGE);
    expect(server.receive.decrypt(full).length).toBe(MAX_MESSAGE - 16);
    expect(noiseReason(() => agent.send.encrypt(new Uint8Array(MAX_MESSAGE - 16 + 1)))).toBe("too-large");
    expect(agent.send.nonce).toBe(1n);
    expect(text(server.receive.decrypt(agent.send.encrypt(bytes("still fine"))))).toBe("still fine");
    expect(noiseReason(() => server.receive.decrypt(new Uint8Array(MAX_MESSAGE + 1)))).toBe("too-large");
  });

  it("refuses messages shorter than their fixed parts", () => {
    expect(noiseReason(() => handshakes().server.readMessage(new Uint8Array(95)))).toBe("short-message");
    const { agent, server } = handshakes();
    server.readMessage(agent.writeMessage());
    expect(noiseReason(() => agent.readMessage(server.writeMessage().subarray(0, 47)))).toBe("short-message");
    expect(noiseReason(() => session().server.receive.decrypt(new Uint8Array(15)))).toBe("short-message");
  });
});
