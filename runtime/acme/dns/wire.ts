// The few DNS messages dns-01 needs, in wire format (RFC 1035 4.1): a query (SOA to find the zone, TXT
// to see a record propagate) and an RFC 2136 UPDATE adding or deleting one TXT record, both optionally
// signed with TSIG (RFC 8945), and the answer's parsing with its TSIG verified. No npm library builds
// UPDATE messages with TSIG (dns-packet and dns2 have neither the UPDATE sections nor TSIG), so this is
// written here against the RFCs, with node:crypto's HMAC and timingSafeEqual.
import { createHmac, randomInt, timingSafeEqual } from "node:crypto";

export const TYPE = { SOA: 6, TXT: 16, TSIG: 250 } as const;
const CLASS_IN = 1;
const CLASS_NONE = 254;
const CLASS_ANY = 255;
const OPCODE_UPDATE = 5;

export const RCODES: Record<number, string> = {
  0: "NOERROR",
  1: "FORMERR",
  2: "SERVFAIL",
  3: "NXDOMAIN",
  4: "NOTIMP",
  5: "REFUSED",
  6: "YXDOMAIN",
  7: "YXRRSET",
  8: "NXRRSET",
  9: "NOTAUTH",
  10: "NOTZONE",
};
const TSIG_ERRORS: Record<number, string> = { 16: "BADSIG", 17: "BADKEY", 18: "BADTIME", 22: "BADTRUNC" };

/** The settings' TSIG algorithms: their wire names (RFC 8945 6) and node:crypto digests. */
export const TSIG_ALGORITHM: Record<string, { name: string; digest: string }> = {
  "hmac-md5": { name: "hmac-md5.sig-alg.reg.int", digest: "md5" },
  "hmac-sha1": { name: "hmac-sha1", digest: "sha1" },
  "hmac-sha224": { name: "hmac-sha224", digest: "sha224" },
  "hmac-sha256": { name: "hmac-sha256", digest: "sha256" },
  "hmac-sha384": { name: "hmac-sha384", digest: "sha384" },
  "hmac-sha512": { name: "hmac-sha512", digest: "sha512" },
};

export interface TsigKey {
  name: string;
  algorithm: string;
  /** The shared secret, decoded from the settings' base64. */
  secret: Uint8Array;
}

/** Fudge (seconds of clock skew allowed) as BIND's nsupdate sends it. */
const FUDGE = 300;

class Writer {
  private readonly parts: Buffer[] = [];
  u8(n: number) {
    this.parts.push(Buffer.from([n & 0xff]));
    return this;
  }
  u16(n: number) {
    const b = Buffer.alloc(2);
    b.writeUInt16BE(n & 0xffff);
    this.parts.push(b);
    return this;
  }
  u32(n: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n >>> 0);
    this.parts.push(b);
    return this;
  }
  u48(n: number) {
    const b = Buffer.alloc(6);
    b.writeUIntBE(n, 0, 6);
    this.parts.push(b);
    return this;
  }
  bytes(b: Uint8Array) {
    this.parts.push(Buffer.from(b));
    return this;
  }
  name(name: string) {
    return this.bytes(encodeName(name));
  }
  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** A name in uncompressed wire form, lower-cased (TSIG's canonical form; DNS compares names case-insensitively). */
export function encodeName(name: string): Buffer {
  const labels = name
    .replace(/\.$/, "")
    .toLowerCase()
    .split(".")
    .filter((l) => l.length > 0);
  const parts: Buffer[] = [];
  for (const label of labels) {
    const bytes = Buffer.from(label, "ascii");
    if (bytes.length > 63) throw new Error(`DNS label "${label}" is longer than 63 bytes`);
    parts.push(Buffer.from([bytes.length]), bytes);
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

function txtRdata(value: string): Buffer {
  const bytes = Buffer.from(value, "utf8");
  if (bytes.length > 255) throw new Error("A TXT string is at most 255 bytes");
  return Buffer.concat([Buffer.from([bytes.length]), bytes]);
}

function header(id: number, flags: number, counts: [number, number, number, number]): Writer {
  const w = new Writer().u16(id).u16(flags);
  for (const c of counts) w.u16(c);
  return w;
}

export const newMessageId = () => randomInt(0, 0x10000);

/** A standard query for one name and type (no recursion wanted: we ask the authoritative server). */
export function buildQuery(id: number, name: string, type: number): Buffer {
  return header(id, 0, [1, 0, 0, 0]).name(name).u16(type).u16(CLASS_IN).done();
}

/** An RFC 2136 UPDATE of `zone`: add (TTL `ttl`) or delete (class NONE, 2.5.4) the TXT `value` at `fqdn`. */
export function buildTxtUpdate(id: number, zone: string, fqdn: string, value: string, op: "add" | "delete", ttl = 60): Buffer {
  const rdata = txtRdata(value);
  return header(id, OPCODE_UPDATE << 11, [1, 0, 1, 0])
    .name(zone)
    .u16(TYPE.SOA)
    .u16(CLASS_IN)
    .name(fqdn)
    .u16(TYPE.TXT)
    .u16(op === "add" ? CLASS_IN : CLASS_NONE)
    .u32(op === "add" ? ttl : 0)
    .u16(rdata.length)
    .bytes(rdata)
    .done();
}

/** The TSIG variables a MAC covers after the message (RFC 8945 4.3.3). */
function tsigVariables(keyName: string, algorithm: string, timeSigned: number, fudge: number, error: number, other: Uint8Array): Buffer {
  return new Writer()
    .name(keyName)
    .u16(CLASS_ANY)
    .u32(0)
    .name(algorithm)
    .u48(timeSigned)
    .u16(fudge)
    .u16(error)
    .u16(other.length)
    .bytes(other)
    .done();
}

function hmac(key: TsigKey, ...parts: Uint8Array[]): Buffer {
  const alg = TSIG_ALGORITHM[key.algorithm];
  if (!alg) throw new Error(`Unsupported TSIG algorithm ${key.algorithm}`);
  const h = createHmac(alg.digest, key.secret);
  for (const p of parts) h.update(p);
  return h.digest();
}

/** Appends a TSIG record to `message` (RFC 8945 4.3.3); returns the signed message and the MAC a response is verified against. */
export function signMessage(message: Buffer, key: TsigKey, nowSeconds: number): { signed: Buffer; mac: Buffer } {
  const mac = hmac(key, message, tsigVariables(key.name, TSIG_ALGORITHM[key.algorithm]!.name, nowSeconds, FUDGE, 0, new Uint8Array()));
  const id = message.readUInt16BE(0);
  const rdata = new Writer()
    .name(TSIG_ALGORITHM[key.algorithm]!.name)
    .u48(nowSeconds)
    .u16(FUDGE)
    .u16(mac.length)
    .bytes(mac)
    .u16(id)
    .u16(0)
    .u16(0)
    .done();
  const rr = new Writer().name(key.name).u16(TYPE.TSIG).u16(CLASS_ANY).u32(0).u16(rdata.length).bytes(rdata).done();
  const signed = Buffer.concat([message, rr]);
  signed.writeUInt16BE(message.readUInt16BE(10) + 1, 10);
  return { signed, mac };
}

export interface ResourceRecord {
  name: string;
  type: number;
  cls: number;
  ttl: number;
  /** Offset of the record's first byte in the message, and of its RDATA. */
  start: number;
  rdataStart: number;
  rdataLength: number;
}

export interface ParsedMessage {
  id: number;
  rcode: number;
  answers: ResourceRecord[];
  authority: ResourceRecord[];
  additional: ResourceRecord[];
  raw: Buffer;
}

/** Reads a possibly compressed name at `offset`; returns it and the offset after it in the message. */
function readName(raw: Buffer, offset: number): [string, number] {
  const labels: string[] = [];
  let pos = offset;
  let end = -1;
  for (let hops = 0; hops < 128; hops++) {
    const len = raw.readUInt8(pos);
    if (len === 0) return [labels.join("."), end === -1 ? pos + 1 : end];
    if ((len & 0xc0) === 0xc0) {
      if (end === -1) end = pos + 2;
      pos = raw.readUInt16BE(pos) & 0x3fff;
      continue;
    }
    labels.push(raw.toString("latin1", pos + 1, pos + 1 + len).toLowerCase());
    pos += 1 + len;
  }
  throw new Error("DNS name compression loop");
}

/** Parses an answer's header and records (RangeError on a truncated or malformed message). */
export function parseMessage(raw: Buffer): ParsedMessage {
  const id = raw.readUInt16BE(0);
  const rcode = raw.readUInt16BE(2) & 0x0f;
  const [qd, an, ns, ar] = [raw.readUInt16BE(4), raw.readUInt16BE(6), raw.readUInt16BE(8), raw.readUInt16BE(10)];
  let pos = 12;
  for (let i = 0; i < qd; i++) pos = readName(raw, pos)[1] + 4;
  const section = (count: number): ResourceRecord[] => {
    const out: ResourceRecord[] = [];
    for (let i = 0; i < count; i++) {
      const start = pos;
      const [name, after] = readName(raw, pos);
      const rdataLength = raw.readUInt16BE(after + 8);
      const record = {
        name,
        type: raw.readUInt16BE(after),
        cls: raw.readUInt16BE(after + 2),
        ttl: raw.readUInt32BE(after + 4),
        start,
        rdataStart: after + 10,
        rdataLength,
      };
      if (record.rdataStart + rdataLength > raw.length) throw new RangeError("DNS record runs past the message");
      out.push(record);
      pos = record.rdataStart + rdataLength;
    }
    return out;
  };
  return { id, rcode, answers: section(an), authority: section(ns), additional: section(ar), raw };
}

/** The character strings of a TXT record, joined (RFC 7208 3.3 style). */
export function txtValue(msg: ParsedMessage, rr: ResourceRecord): string {
  let pos = rr.rdataStart;
  let out = "";
  while (pos < rr.rdataStart + rr.rdataLength) {
    const len = msg.raw.readUInt8(pos);
    out += msg.raw.toString("utf8", pos + 1, pos + 1 + len);
    pos += 1 + len;
  }
  return out;
}

export interface TsigCheck {
  /** null when the answer is signed and its MAC verifies. */
  problem: string | null;
}

interface TsigFields {
  record: ResourceRecord;
  algorithm: string;
  timeSigned: number;
  fudge: number;
  mac: Buffer;
  originalId: number;
  error: number;
  other: Buffer;
}

/** The TSIG record closing a message's additional section, parsed (null when the message is unsigned). */
function readTsig(msg: ParsedMessage): TsigFields | null {
  const record = msg.additional.at(-1);
  if (!record || record.type !== TYPE.TSIG) return null;
  const raw = msg.raw;
  const [algorithm, pos] = readName(raw, record.rdataStart);
  const macSize = raw.readUInt16BE(pos + 8);
  const after = pos + 10 + macSize;
  const otherLen = raw.readUInt16BE(after + 4);
  return {
    record,
    algorithm,
    timeSigned: raw.readUIntBE(pos, 6),
    fudge: raw.readUInt16BE(pos + 6),
    mac: raw.subarray(pos + 10, after),
    originalId: raw.readUInt16BE(after),
    error: raw.readUInt16BE(after + 2),
    other: raw.subarray(after + 6, after + 6 + otherLen),
  };
}

/** The TSIG error of an answer (a server refusing our key answers NOTAUTH with BADSIG, BADKEY or BADTIME). */
export function tsigError(msg: ParsedMessage): string | null {
  const code = readTsig(msg)?.error ?? 0;
  return code ? (TSIG_ERRORS[code] ?? `TSIG error ${code}`) : null;
}

/**
 * Verifies a signed answer to a request whose MAC was `requestMac` (RFC 8945 5.3): the MAC over the
 * request MAC, the answer without its TSIG (ARCOUNT one less, the original ID) and the TSIG variables,
 * compared in constant time, and the time within the fudge.
 */
export function verifyAnswer(msg: ParsedMessage, key: TsigKey, requestMac: Buffer, nowSeconds: number): TsigCheck {
  const tsig = readTsig(msg);
  if (!tsig) return { problem: "the answer is not signed" };
  const error = tsigError(msg);
  if (error) return { problem: `the server's TSIG error is ${error}` };
  if (tsig.record.name !== key.name.replace(/\.$/, "").toLowerCase())
    return { problem: `the answer is signed with another key (${tsig.record.name})` };
  if (tsig.algorithm !== TSIG_ALGORITHM[key.algorithm]!.name)
    return { problem: `the answer is signed with another algorithm (${tsig.algorithm})` };
  const unsigned = Buffer.from(msg.raw.subarray(0, tsig.record.start));
  unsigned.writeUInt16BE(tsig.originalId, 0);
  unsigned.writeUInt16BE(msg.raw.readUInt16BE(10) - 1, 10);
  const lengthPrefix = Buffer.alloc(2);
  lengthPrefix.writeUInt16BE(requestMac.length);
  const expected = hmac(
    key,
    lengthPrefix,
    requestMac,
    unsigned,
    tsigVariables(key.name, tsig.algorithm, tsig.timeSigned, tsig.fudge, tsig.error, tsig.other),
  );
  if (tsig.mac.length !== expected.length || !timingSafeEqual(tsig.mac, expected))
    return { problem: "the answer's TSIG signature does not verify" };
  if (Math.abs(nowSeconds - tsig.timeSigned) > tsig.fudge) return { problem: "the answer's TSIG time is outside the fudge" };
  return { problem: null };
}
