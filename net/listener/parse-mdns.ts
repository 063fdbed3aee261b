// mDNS / DNS-SD packets (RFC 6762, 6763) as the passive listener reads them: decoded by the maintained
// `dns-packet` library (a hand-written DNS parser is where malformed-packet bugs live), then folded into
// one observation: PTR names the service instances, SRV gives each its host and port, TXT its key=value
// facts (a printer's usb_MFG / usb_MDL / ty, a Chromecast's md), A/AAAA the host's addresses.
import dnsPacket from "dns-packet";
import type { ListenerObservation, ListenerService } from "../../shared/domain/discovery/listener.ts";

type Answer = dnsPacket.Answer;

export class MalformedPacket extends Error {}

const MAX_RECORDS = 200;
const MAX_SERVICES = 32;
const clip = (s: string | null | undefined, max = 200): string | null =>
  typeof s === "string" && s.trim() ? s.trim().slice(0, max) : null;
const strip = (name: string) => name.replace(/\.$/, "");

/** `Office Printer._ipp._tcp.local` -> {type: ipp, protocol: tcp, instance: Office Printer}. */
function serviceOf(instance: string): { type: string; protocol: "tcp" | "udp"; name: string } | null {
  const m = /^(.*?)\._([A-Za-z0-9-]{1,63})\._(tcp|udp)\.[\s\S]*$/.exec(instance);
  if (!m) return null;
  return { name: m[1]!, type: m[2]!.toLowerCase(), protocol: m[3] as "tcp" | "udp" };
}

function txtPairs(data: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const parts = Array.isArray(data) ? data : [data];
  for (const p of parts.slice(0, 64)) {
    const s = Buffer.isBuffer(p) ? p.toString("utf8") : typeof p === "string" ? p : "";
    const eq = s.indexOf("=");
    if (eq > 0) out.set(s.slice(0, eq).toLowerCase(), s.slice(eq + 1));
  }
  return out;
}

const VENDOR_KEYS = ["usb_mfg", "mfg", "manufacturer", "vendor", "mf"];
const MODEL_KEYS = ["usb_mdl", "mdl", "model", "md", "ty", "am"];
const SERIAL_KEYS = ["serialnumber", "serial", "sn", "usb_sn"];
const pick = (txt: Map<string, string>, keys: string[]): string | null => {
  for (const k of keys) {
    const v = clip(txt.get(k));
    if (v) return v;
  }
  return null;
};

/** One mDNS datagram as an observation; throws MalformedPacket for anything dns-packet cannot decode. */
/** Header, and the fewest bytes a question (root name, type, class) and a record (+ TTL, length) take. */
const HEADER_BYTES = 12;
const MIN_QUESTION_BYTES = 5;
const MIN_RECORD_BYTES = 11;

/**
 * Whether the header's counts could fit the packet. dns-packet works through every count it is given
 * before it finds the bytes missing: random bytes cost it milliseconds each, so a flood of them would
 * hold the listener's thread; this check refuses them for the price of four reads.
 */
function countsFit(buf: Buffer): boolean {
  if (buf.length < HEADER_BYTES) return false;
  const questions = buf.readUInt16BE(4);
  const records = buf.readUInt16BE(6) + buf.readUInt16BE(8) + buf.readUInt16BE(10);
  return questions * MIN_QUESTION_BYTES + records * MIN_RECORD_BYTES <= buf.length - HEADER_BYTES;
}

export function parseMdns(buf: Buffer, source: string, at: string): ListenerObservation {
  if (!countsFit(buf)) throw new MalformedPacket("mDNS packet not decodable: its header counts more records than it holds");
  let packet: dnsPacket.Packet;
  try {
    packet = dnsPacket.decode(buf);
  } catch (e) {
    throw new MalformedPacket(`mDNS packet not decodable: ${e instanceof Error ? e.message : String(e)}`);
  }
  const isResponse = ((packet.flags ?? 0) & 0x8000) !== 0 || packet.type === "response";
  const records: Answer[] = [...(packet.answers ?? []), ...(packet.additionals ?? [])].slice(0, MAX_RECORDS);
  const instances = new Set<string>();
  const srv = new Map<string, { target: string; port: number }>();
  let txt = new Map<string, string>();
  const hostAddrs = new Map<string, string[]>();
  for (const r of records) {
    const name = strip(String(r.name ?? ""));
    if (r.type === "PTR" && typeof r.data === "string") {
      if (!/^_services\._dns-sd\._udp\./i.test(name)) instances.add(strip(r.data));
    } else if (r.type === "SRV" && r.data && typeof r.data === "object") {
      const d = r.data as { target?: string; port?: number };
      if (typeof d.port === "number") srv.set(name, { target: strip(String(d.target ?? "")), port: d.port });
      instances.add(name);
    } else if (r.type === "TXT") {
      const pairs = txtPairs(r.data);
      txt = new Map([...txt, ...pairs]);
    } else if ((r.type === "A" || r.type === "AAAA") && typeof r.data === "string") {
      hostAddrs.set(name.toLowerCase(), [...(hostAddrs.get(name.toLowerCase()) ?? []), r.data]);
    }
  }
  const services: ListenerService[] = [];
  for (const inst of instances) {
    const svc = serviceOf(inst);
    if (!svc || services.length >= MAX_SERVICES) continue;
    const where = srv.get(inst);
    services.push({ type: svc.type, name: clip(svc.name), port: where?.port ?? null, protocol: svc.protocol });
  }
  const target = [...srv.values()].find((x) => x.target)?.target ?? [...hostAddrs.keys()][0] ?? null;
  const addresses = [...new Set([...hostAddrs.values()].flat())].slice(0, 16);
  const v4Of = (host: string | null) => (host ? (hostAddrs.get(host.toLowerCase()) ?? []).find((a) => !a.includes(":")) : undefined);
  const address = v4Of(target) ?? (source.includes(":") ? (addresses.find((a) => !a.includes(":")) ?? null) : source);
  return {
    protocol: "mdns",
    kind: isResponse ? "response" : "query",
    source,
    address,
    mac: null,
    hostname: isResponse ? clip(target, 255) : null,
    addresses,
    services: isResponse ? services : [],
    vendor: pick(txt, VENDOR_KEYS),
    model: pick(txt, MODEL_KEYS),
    serial: pick(txt, SERIAL_KEYS),
    location: null,
    usn: null,
    server: null,
    described: false,
    at,
  };
}
