// SSDP (UPnP 1.1 discovery): HTTP-over-UDP messages whose header lines are all the listener reads. A
// NOTIFY ssdp:alive announces a device and its description URL (LOCATION); ssdp:byebye says it leaves;
// an M-SEARCH is someone else's question (recorded, never answered); an `HTTP/1.1 200 OK` is a device's
// answer to one. The device description the LOCATION serves (XML) names manufacturer, model and serial.
import { XMLParser } from "fast-xml-parser";
import type { ListenerObservation, ListenerService } from "../../shared/domain/discovery/listener.ts";
import { MalformedPacket } from "./parse-mdns.ts";

const MAX_HEADERS = 40;
const clip = (s: unknown, max = 200): string | null =>
  typeof s === "string" && s.trim() ? s.trim().slice(0, max) : typeof s === "number" ? String(s) : null;

/** The request/status line and the headers (lower-case names) of one SSDP datagram. */
export function ssdpHeaders(buf: Buffer): { start: string; headers: Map<string, string> } {
  const text = buf.toString("latin1");
  if (!/^(NOTIFY \* HTTP\/1\.[01]|M-SEARCH \* HTTP\/1\.[01]|HTTP\/1\.[01] \d{3})/i.test(text))
    throw new MalformedPacket("not an SSDP message (no NOTIFY, M-SEARCH or HTTP status line)");
  const lines = text.split(/\r?\n/);
  const headers = new Map<string, string>();
  for (const line of lines.slice(1, 1 + MAX_HEADERS)) {
    if (line === "") break;
    const colon = line.indexOf(":");
    if (colon <= 0) throw new MalformedPacket("an SSDP header line without a name");
    headers.set(
      line.slice(0, colon).trim().toLowerCase(),
      line
        .slice(colon + 1)
        .trim()
        .slice(0, 1000),
    );
  }
  return { start: lines[0]!.trim(), headers };
}

/** `urn:schemas-upnp-org:device:InternetGatewayDevice:1` -> `upnp:InternetGatewayDevice:1`; other NT/ST values as given. */
function upnpType(nt: string | null): string | null {
  if (!nt) return null;
  const m = /^urn:[^:]+:(device|service):(.+)$/i.exec(nt);
  if (m) return `upnp:${m[2]}`.slice(0, 100);
  if (/^upnp:rootdevice$/i.test(nt)) return "upnp:rootdevice";
  return null;
}

/** The LOCATION as a URL whose host is an IPv4 literal, or null (a name is never resolved for a fetch). */
export function locationOf(raw: string | null): URL | null {
  if (!raw) return null;
  try {
    const u = new URL(raw);
    return (u.protocol === "http:" || u.protocol === "https:") && /^\d{1,3}(\.\d{1,3}){3}$/.test(u.hostname) ? u : null;
  } catch {
    return null;
  }
}

export function parseSsdp(buf: Buffer, source: string, at: string): ListenerObservation {
  const { start, headers } = ssdpHeaders(buf);
  const h = (k: string) => clip(headers.get(k), 1000);
  const nts = (h("nts") ?? "").toLowerCase();
  const kind = /^NOTIFY/i.test(start)
    ? nts === "ssdp:byebye"
      ? "byebye"
      : "notify"
    : /^M-SEARCH/i.test(start)
      ? "search"
      : "search_response";
  const location = h("location");
  const url = locationOf(location);
  const type = upnpType(h("nt") ?? h("st"));
  const services: ListenerService[] =
    kind === "notify" || kind === "search_response"
      ? [
          {
            type: type ?? "upnp",
            name: null,
            port: url ? Number(url.port || (url.protocol === "https:" ? 443 : 80)) : null,
            protocol: "tcp",
          },
        ]
      : [];
  return {
    protocol: "ssdp",
    kind,
    source,
    address: source.includes(":") ? null : source,
    mac: null,
    hostname: null,
    addresses: [],
    services,
    vendor: null,
    model: null,
    serial: null,
    location: clip(location, 1000),
    usn: clip(h("usn"), 500),
    server: clip(h("server"), 200),
    described: false,
    at,
  };
}

export interface DeviceDescription {
  friendlyName: string | null;
  manufacturer: string | null;
  modelName: string | null;
  modelNumber: string | null;
  serialNumber: string | null;
  deviceType: string | null;
  services: string[];
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  processEntities: false,
  isArray: (name) => name === "service" || name === "device",
});

/** A UPnP device description (its root device, and the service types of it and its embedded devices); throws on XML that is not one. */
export function parseDescription(xml: string): DeviceDescription {
  let doc: { root?: { device?: Record<string, unknown>[] } };
  try {
    doc = parser.parse(xml) as typeof doc;
  } catch (e) {
    throw new MalformedPacket(`the description is not XML: ${e instanceof Error ? e.message : String(e)}`);
  }
  const device = doc?.root?.device?.[0];
  if (!device || typeof device !== "object") throw new MalformedPacket("the description has no root/device");
  const services = new Set<string>();
  const walk = (d: Record<string, unknown>, depth: number) => {
    const list = (d.serviceList as { service?: { serviceType?: unknown }[] } | undefined)?.service ?? [];
    for (const s of list.slice(0, 32)) {
      const t = upnpType(clip(s?.serviceType, 200));
      if (t) services.add(t);
    }
    const children = (d.deviceList as { device?: Record<string, unknown>[] } | undefined)?.device ?? [];
    if (depth < 4) for (const c of children.slice(0, 16)) if (c && typeof c === "object") walk(c, depth + 1);
  };
  walk(device, 0);
  return {
    friendlyName: clip(device.friendlyName),
    manufacturer: clip(device.manufacturer),
    modelName: clip(device.modelName),
    modelNumber: clip(device.modelNumber),
    serialNumber: clip(device.serialNumber),
    deviceType: clip(device.deviceType),
    services: [...services].slice(0, 32),
  };
}

/** The observation with what its description said. */
export function describe(o: ListenerObservation, d: DeviceDescription): ListenerObservation {
  const port = o.services[0]?.port ?? null;
  const main = upnpType(d.deviceType);
  const services: ListenerService[] = [...o.services];
  if (main && !services.some((s) => s.type === main)) services.unshift({ type: main, name: d.friendlyName, port, protocol: "tcp" });
  for (const s of services) if (s.type === main || s.name === null) s.name = d.friendlyName;
  const extra = d.services
    .filter((t) => !services.some((s) => s.type === t))
    .map((t): ListenerService => ({ type: t, name: null, port, protocol: "tcp" }));
  return {
    ...o,
    services: [...services, ...extra].slice(0, 32),
    vendor: d.manufacturer ?? o.vendor,
    model: [d.modelName, d.modelNumber && d.modelNumber !== d.modelName ? d.modelNumber : null].filter(Boolean).join(" ") || o.model,
    serial: d.serialNumber ?? o.serial,
    hostname: o.hostname ?? d.friendlyName,
    described: true,
  };
}
