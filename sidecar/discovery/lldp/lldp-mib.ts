// LLDP-MIB (IEEE 802.1AB) as the LLDP walk reads it: lldpRemTable (one row per neighbour, indexed
// timeMark.localPortNum.remIndex), lldpRemManAddrTable (the neighbour's management addresses, carried in
// the row index as subtype.length.bytes) and lldpLocPortTable (what the local port is called).
import type { Varbind } from "net-snmp";
import type { LldpNeighborRead } from "../../../shared/verbs/discovery/lldp/lldp-neighbor.ts";

export const LLDP_OID = {
  remTable: "1.0.8802.1.1.2.1.4.1",
  remManAddrTable: "1.0.8802.1.1.2.1.4.2",
  locPortTable: "1.0.8802.1.1.2.1.3.7",
  sysName: "1.3.6.1.2.1.1.5.0",
} as const;

const REM_ENTRY = "1.0.8802.1.1.2.1.4.1.1.";
const MAN_ADDR_ENTRY = "1.0.8802.1.1.2.1.4.2.1.";
const LOC_PORT_ENTRY = "1.0.8802.1.1.2.1.3.7.1.";

/** LldpSystemCapabilitiesMap: bit 0 is the most significant bit of the first octet. */
const CAPS = [
  "other",
  "repeater",
  "bridge",
  "wlanAccessPoint",
  "router",
  "telephone",
  "docsisCableDevice",
  "stationOnly",
  "cVLANComponent",
  "sVLANComponent",
  "twoPortMACRelay",
];

const mac = (b: Buffer) => [...b].map((x) => x.toString(16).padStart(2, "0")).join(":");

/** Text when the octets are printable, else hex pairs (a chassis id may be either). */
function text(value: unknown): string | null {
  if (value == null) return null;
  if (!Buffer.isBuffer(value)) return String(value);
  if (value.length === 0) return null;
  const s = value.toString("utf8");
  return /^[\x20-\x7e\u00a0-\uffff]*$/.test(s) && !s.includes("\ufffd") ? s.trim() || null : mac(value);
}

export function capsOf(value: unknown): string[] {
  if (!Buffer.isBuffer(value)) return [];
  const out: string[] = [];
  for (let bit = 0; bit < CAPS.length && bit / 8 < value.length; bit++) if (value[bit >> 3]! & (0x80 >> (bit & 7))) out.push(CAPS[bit]!);
  return out;
}

/** `prefix` + "col.i1.i2..." -> [col, [i1, i2, ...]], or null for an OID outside the table. */
function split(oid: string, prefix: string): [number, number[]] | null {
  const o = oid.startsWith(".") ? oid.slice(1) : oid;
  if (!o.startsWith(prefix)) return null;
  const parts = o.slice(prefix.length).split(".").map(Number);
  return [parts[0]!, parts.slice(1)];
}

export function parseLldp(rem: Varbind[], manAddr: Varbind[], locPort: Varbind[]): LldpNeighborRead[] {
  const ports = new Map<number, { id?: string | null; desc?: string | null }>();
  for (const vb of locPort) {
    const s = split(vb.oid, LOC_PORT_ENTRY);
    if (!s) continue;
    const [col, [num]] = s;
    const port = ports.get(num!) ?? {};
    if (col === 3) port.id = text(vb.value);
    if (col === 4) port.desc = text(vb.value);
    ports.set(num!, port);
  }

  const rows = new Map<string, Record<number, unknown>>();
  for (const vb of rem) {
    const s = split(vb.oid, REM_ENTRY);
    if (!s || s[1].length < 3) continue;
    const key = s[1].slice(0, 3).join(".");
    rows.set(key, { ...(rows.get(key) ?? {}), [s[0]]: vb.value });
  }

  const addrs = new Map<string, string>();
  for (const vb of manAddr) {
    const s = split(vb.oid, MAN_ADDR_ENTRY);
    if (!s) continue;
    const [, idx] = s;
    const [subtype, len, ...bytes] = idx.slice(3);
    const key = idx.slice(0, 3).join(".");
    // IANA address family 1 = IPv4; the first IPv4 address wins.
    if (subtype === 1 && len === 4 && bytes.length >= 4 && !addrs.has(key)) addrs.set(key, bytes.slice(0, 4).join("."));
  }

  const out: LldpNeighborRead[] = [];
  for (const [key, r] of rows) {
    const [, localPort, remIndex] = key.split(".").map(Number);
    const chassisSubtype = Number(r[4]);
    const portSubtype = Number(r[6]);
    const chassis = r[5];
    const portId = r[7];
    const local = ports.get(localPort!);
    out.push({
      local_port_num: localPort!,
      rem_index: remIndex!,
      local_port_desc: local?.desc ?? local?.id ?? null,
      remote_chassis_id: chassisSubtype === 4 && Buffer.isBuffer(chassis) && chassis.length === 6 ? mac(chassis) : text(chassis),
      remote_port_id: portSubtype === 3 && Buffer.isBuffer(portId) && portId.length === 6 ? mac(portId) : text(portId),
      remote_port_desc: text(r[8]),
      remote_sys_name: text(r[9]),
      remote_sys_descr: text(r[10]),
      remote_mgmt_ip: addrs.get(key) ?? null,
      remote_caps: capsOf(r[12] ?? r[11]),
    });
  }
  return out.sort((a, b) => a.local_port_num - b.local_port_num || a.rem_index - b.rem_index);
}
