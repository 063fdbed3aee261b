// The passive discovery listener (issue 28; docs/discovery-listener.md): what it hears on the mDNS and SSDP
// multicast groups, in one shape the sidecar's listener (net/listener/), its worker, the verbs and the routes
// share. Runtime-neutral: types and limits only.

export const LISTENER_PROTOCOLS = ["mdns", "ssdp"] as const;
export type ListenerProtocol = (typeof LISTENER_PROTOCOLS)[number];

/** What one packet was: an mDNS answer or question, an SSDP announcement, goodbye, search or search answer. */
export const LISTENER_EVENT_KINDS = ["response", "query", "notify", "byebye", "search", "search_response"] as const;
export type ListenerEventKind = (typeof LISTENER_EVENT_KINDS)[number];

/** One service a device announced: its DNS-SD type (ipp, http, googlecast) or UPnP type, and where. */
export interface ListenerService {
  /** `ipp`, `http`, `airplay`, or for UPnP the device/service type (`upnp:InternetGatewayDevice:1`). */
  type: string;
  /** The DNS-SD instance name or the UPnP friendly name, when announced. */
  name: string | null;
  port: number | null;
  protocol: "tcp" | "udp";
}

/** What one accepted packet said about the device that sent it. */
export interface ListenerObservation {
  protocol: ListenerProtocol;
  kind: ListenerEventKind;
  /** The sender's address (the packet's source). */
  source: string;
  /** The device's IPv4 address: an A record of the announced host when given, else the sender when it is IPv4. */
  address: string | null;
  /** From the neighbour table (/proc/net/arp) of the listener's host, when it has the address. */
  mac: string | null;
  hostname: string | null;
  /** Every address the packet's A/AAAA records named. */
  addresses: string[];
  services: ListenerService[];
  vendor: string | null;
  model: string | null;
  serial: string | null;
  /** SSDP: the announced description URL, and the USN / NT / SERVER headers. */
  location: string | null;
  usn: string | null;
  server: string | null;
  /** Whether the device description (SSDP LOCATION) was fetched and read. */
  described: boolean;
  /** ISO time the packet arrived. */
  at: string;
}

/** The listener's counters and state, as GET /discovery/listener/status reports them for one sidecar. */
export interface ListenerRuntimeStatus {
  running: boolean;
  interfaces: string[];
  /** Groups joined, `group@interface-address` each (224.0.0.251@10.0.0.2). */
  groups: string[];
  packets: Record<ListenerProtocol, number>;
  accepted: Record<ListenerProtocol, number>;
  malformed: Record<ListenerProtocol, number>;
  rate_limited: Record<ListenerProtocol, number>;
  descriptions_fetched: number;
  descriptions_refused: number;
  descriptions_failed: number;
  last_packet_at: string | null;
  /** The latest errors (socket, membership, description fetch), newest first, at most 20. */
  errors: { at: string; message: string }[];
  started_at: string | null;
}

export const LISTENER_LIMITS = {
  /** Packets accepted per source address per second; more are counted and dropped. */
  perSourcePerSecond: 20,
  /** Source addresses tracked for the rate cap at once (the oldest are forgotten past it). */
  trackedSources: 4096,
  /** The largest datagram read; a bigger one is malformed. */
  maxPacketBytes: 9000,
  /** Events kept in the table, and for how long. */
  maxStoredEvents: 10_000,
  retentionDays: 7,
  /** Device description fetch: size cap, timeout, how many at once, how long one LOCATION is not asked again. */
  descriptionMaxBytes: 64 * 1024,
  descriptionTimeoutMs: 3000,
  descriptionConcurrency: 2,
  descriptionQueue: 32,
  descriptionRefetchMs: 10 * 60 * 1000,
  /** Observations held between two flushes to the database; more are dropped (and counted). */
  maxPending: 2000,
} as const;

export function emptyListenerStatus(): ListenerRuntimeStatus {
  const zero = (): Record<ListenerProtocol, number> => ({ mdns: 0, ssdp: 0 });
  return {
    running: false,
    interfaces: [],
    groups: [],
    packets: zero(),
    accepted: zero(),
    malformed: zero(),
    rate_limited: zero(),
    descriptions_fetched: 0,
    descriptions_refused: 0,
    descriptions_failed: 0,
    last_packet_at: null,
    errors: [],
    started_at: null,
  };
}
