// The passive mDNS/SSDP listener (issue 28; docs/discovery-listener.md): joins 224.0.0.251:5353 (and
// ff02::fb where the interface has IPv6) and 239.255.255.250:1900 on the interfaces it is given, reads
// what devices announce, and hands each accepted packet on as an observation. It never sends a datagram:
// no answer, no query, no re-announcement; the only traffic it causes is the device-description fetch the
// caller's `fetchDescription` decides (allowed targets, outbound policy, size cap, timeout).
//
// Bounded under a flood: every datagram is counted; one larger than maxPacketBytes or one the parsers
// refuse is counted malformed and dropped; a source past perSourcePerSecond is counted rate_limited and
// dropped before parsing; the description fetches run at most descriptionConcurrency at once from a queue
// of descriptionQueue, each LOCATION at most once per descriptionRefetchMs. Nothing here throws into the
// event loop: socket errors are recorded in the status and the socket stays (or is closed) as it is.
import dgram from "node:dgram";
import { readFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import {
  emptyListenerStatus,
  LISTENER_LIMITS,
  type ListenerObservation,
  type ListenerProtocol,
  type ListenerRuntimeStatus,
} from "../../shared/domain/discovery/listener.ts";
import { MalformedPacket, parseMdns } from "./parse-mdns.ts";
import { type DeviceDescription, describe, locationOf, parseDescription, parseSsdp } from "./parse-ssdp.ts";

export const MDNS_GROUP_V4 = "224.0.0.251";
export const MDNS_GROUP_V6 = "ff02::fb";
export const SSDP_GROUP_V4 = "239.255.255.250";

/** What a description fetch came to: the XML, or why there is none (refused: not an allowed target or the outbound policy). */
export type DescriptionFetch = { ok: true; xml: string } | { ok: false; refused: boolean; reason: string };

export interface PassiveListenerOptions {
  /** Interface names (eth0, br-lan); each IPv4 address of each joins the groups. */
  interfaces: string[];
  onObservation(o: ListenerObservation): void;
  fetchDescription?: (url: URL, source: string) => Promise<DescriptionFetch>;
  /** The MAC of an address from the neighbour table; default reads /proc/net/arp. */
  neighbour?: (ip: string) => string | null;
  /** Ports (tests may move them); default 5353 and 1900. */
  ports?: { mdns: number; ssdp: number };
  limits?: Partial<typeof LISTENER_LIMITS>;
  now?: () => Date;
}

export interface PassiveListener {
  start(): Promise<void>;
  /** Closes every socket; resolves once the description fetches in flight have ended. */
  stop(): Promise<void>;
  status(): ListenerRuntimeStatus;
}

/** The MAC per IPv4 address in the kernel's neighbour table (complete entries only), read at most once a second. */
export function procArpNeighbours(path = "/proc/net/arp"): (ip: string) => string | null {
  let table = new Map<string, string>();
  let readAt = 0;
  return (ip) => {
    if (Date.now() - readAt > 1000) {
      readAt = Date.now();
      table = new Map();
      try {
        for (const line of readFileSync(path, "utf8").split("\n").slice(1, 4097)) {
          const [addr, , flags, mac] = line.trim().split(/\s+/);
          if (addr && mac && flags === "0x2" && mac !== "00:00:00:00:00:00") table.set(addr, mac.toLowerCase());
        }
      } catch {
        // no neighbour table on this platform: MACs stay unknown
      }
    }
    return table.get(ip) ?? null;
  };
}

export function passiveListener(opts: PassiveListenerOptions): PassiveListener {
  const limits = { ...LISTENER_LIMITS, ...opts.limits };
  const ports = opts.ports ?? { mdns: 5353, ssdp: 1900 };
  const now = opts.now ?? (() => new Date());
  const neighbour = opts.neighbour ?? procArpNeighbours();
  let st = emptyListenerStatus();
  const sockets: dgram.Socket[] = [];
  const windows = new Map<string, { second: number; count: number }>();
  const described = new Map<string, { at: number; desc: DeviceDescription | null }>();
  const queue: { url: URL; obs: ListenerObservation }[] = [];
  const inFlight = new Set<Promise<void>>();
  let stopped = true;

  const error = (message: string) => {
    st.errors.unshift({ at: now().toISOString(), message: message.slice(0, 500) });
    st.errors.length = Math.min(st.errors.length, 20);
  };

  const emit = (o: ListenerObservation) => {
    try {
      opts.onObservation(o);
    } catch (e) {
      error(`observation handler: ${String(e)}`);
    }
  };

  const allowedRate = (source: string): boolean => {
    const second = Math.floor(Date.now() / 1000);
    const w = windows.get(source);
    if (!w || w.second !== second) {
      windows.delete(source);
      if (windows.size >= limits.trackedSources) windows.delete(windows.keys().next().value!);
      windows.set(source, { second, count: 1 });
      return true;
    }
    return ++w.count <= limits.perSourcePerSecond;
  };

  const pump = () => {
    while (!stopped && inFlight.size < limits.descriptionConcurrency && queue.length > 0) {
      const { url, obs } = queue.shift()!;
      const job = (async () => {
        let desc: DeviceDescription | null = null;
        try {
          const got = await opts.fetchDescription!(url, obs.source);
          if (got.ok) {
            desc = parseDescription(got.xml);
            st.descriptions_fetched++;
          } else if (got.refused) st.descriptions_refused++;
          else {
            st.descriptions_failed++;
            error(`description ${url.href}: ${got.reason}`);
          }
        } catch (e) {
          st.descriptions_failed++;
          error(`description ${url.href}: ${e instanceof Error ? e.message : String(e)}`);
        }
        described.set(url.href, { at: Date.now(), desc });
        emit(desc ? describe(obs, desc) : obs);
      })();
      inFlight.add(job);
      void job.finally(() => {
        inFlight.delete(job);
        pump();
      });
    }
  };

  const handle = (protocol: ListenerProtocol, msg: Buffer, source: string) => {
    st.packets[protocol]++;
    st.last_packet_at = now().toISOString();
    if (!allowedRate(source)) {
      st.rate_limited[protocol]++;
      return;
    }
    if (msg.length > limits.maxPacketBytes || msg.length === 0) {
      st.malformed[protocol]++;
      return;
    }
    let obs: ListenerObservation;
    try {
      obs = protocol === "mdns" ? parseMdns(msg, source, st.last_packet_at) : parseSsdp(msg, source, st.last_packet_at);
    } catch (e) {
      st.malformed[protocol]++;
      if (!(e instanceof MalformedPacket)) error(`${protocol} parser: ${String(e)}`);
      return;
    }
    st.accepted[protocol]++;
    if (obs.address) obs.mac = neighbour(obs.address);
    const url = obs.kind === "notify" || obs.kind === "search_response" ? locationOf(obs.location) : null;
    if (url && opts.fetchDescription) {
      const seen = described.get(url.href);
      if (seen && Date.now() - seen.at < limits.descriptionRefetchMs) {
        emit(seen.desc ? describe(obs, seen.desc) : obs);
        return;
      }
      if (queue.some((q) => q.url.href === url.href)) return emit(obs);
      if (queue.length >= limits.descriptionQueue) return emit(obs);
      if (described.size >= 1024) described.delete(described.keys().next().value!);
      described.set(url.href, { at: Date.now(), desc: null }); // asked once per window, whatever comes of it
      queue.push({ url, obs });
      pump();
      return;
    }
    emit(obs);
  };

  const open = (
    protocol: ListenerProtocol,
    type: "udp4" | "udp6",
    port: number,
    joins: { group: string; iface: string }[],
  ): Promise<void> =>
    new Promise((resolve) => {
      const sock = dgram.createSocket({ type, reuseAddr: true, ...(type === "udp6" ? { ipv6Only: true } : {}) });
      sock.on("error", (e) => error(`${protocol} ${type} socket: ${e.message}`));
      sock.on("message", (msg, rinfo) => {
        try {
          handle(protocol, msg, rinfo.address.replace(/%.*$/, ""));
        } catch (e) {
          error(`${protocol} handler: ${String(e)}`);
        }
      });
      const failed = (e: Error) => {
        error(`${protocol} ${type} bind :${port}: ${e.message}`);
        sock.close();
        resolve();
      };
      sock.once("error", failed);
      sock.bind({ port, address: type === "udp6" ? "::" : "0.0.0.0", exclusive: false }, () => {
        sock.off("error", failed);
        for (const j of joins) {
          try {
            sock.addMembership(j.group, j.iface);
            st.groups.push(`${j.group}@${j.iface}`);
          } catch (e) {
            error(`${protocol} join ${j.group} on ${j.iface}: ${e instanceof Error ? e.message : String(e)}`);
          }
        }
        sockets.push(sock);
        resolve();
      });
    });

  return {
    async start() {
      if (!stopped) return;
      stopped = false;
      st = emptyListenerStatus();
      st.interfaces = [...opts.interfaces];
      st.started_at = now().toISOString();
      const nics = networkInterfaces();
      const v4: string[] = [];
      const v6: string[] = [];
      for (const name of opts.interfaces) {
        const addrs = nics[name];
        if (!addrs) {
          error(`interface ${name} not found`);
          continue;
        }
        const own = addrs.filter((a) => a.family === "IPv4" && !a.internal).map((a) => a.address);
        if (own.length === 0)
          error(`interface ${name} has no IPv4 address other than loopback: mDNS and SSDP over IPv4 are not joined there`);
        v4.push(...own);
        if (addrs.some((a) => a.family === "IPv6" && a.address.startsWith("fe80"))) v6.push(name);
      }
      if (v4.length > 0) {
        await open(
          "mdns",
          "udp4",
          ports.mdns,
          v4.map((iface) => ({ group: MDNS_GROUP_V4, iface })),
        );
        await open(
          "ssdp",
          "udp4",
          ports.ssdp,
          v4.map((iface) => ({ group: SSDP_GROUP_V4, iface })),
        );
      }
      if (v6.length > 0)
        await open(
          "mdns",
          "udp6",
          ports.mdns,
          v6.map((name) => ({ group: MDNS_GROUP_V6, iface: `::%${name}` })),
        );
      st.running = sockets.length > 0;
    },
    async stop() {
      stopped = true;
      queue.length = 0;
      for (const s of sockets.splice(0)) {
        try {
          s.close();
        } catch {
          // already closed
        }
      }
      st.running = false;
      await Promise.allSettled([...inFlight]);
    },
    status: () => structuredClone(st),
  };
}
