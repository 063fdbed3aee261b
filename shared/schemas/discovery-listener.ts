// [discovery] GET /discovery/listener/status and /discovery/listener/events (issue 28): the passive
// mDNS/SSDP listener's state and what it heard (docs/discovery-listener.md). The catalogue names the
// operations only; these shapes are ours (docs/adr/0390-discovery-listener.md).
import * as v from "valibot";
import { parseAddress } from "../domain/cidr-math.ts";
import { LISTENER_EVENT_KINDS, LISTENER_PROTOCOLS } from "../domain/discovery/listener.ts";
import { listQuery, listResponse } from "./list-query.ts";

const Str = v.nullable(v.string());
const Counts = v.object({
  packets: v.pipe(v.number(), v.description("Datagrams received")),
  accepted: v.pipe(v.number(), v.description("Parsed and handed on")),
  malformed: v.pipe(v.number(), v.description("Refused by the parser or over the size cap, dropped")),
  rate_limited: v.pipe(v.number(), v.description("Over the per-source rate cap, dropped unparsed")),
});
const PerProtocol = v.object({ mdns: Counts, ssdp: Counts });
const ErrorLine = v.object({ at: v.string(), message: v.string() });

export const ListenerStatusOut = v.object({
  enabled: v.pipe(v.boolean(), v.description("The discovery_listener_enabled setting")),
  interfaces: v.pipe(v.array(v.string()), v.description("The discovery_listener_interfaces setting")),
  listening: v.pipe(v.boolean(), v.description("Whether a sidecar reported its sockets open within the last 90 s")),
  groups: v.pipe(v.array(v.string()), v.description("Groups joined, group@interface-address")),
  counts: PerProtocol,
  last_packet_at: Str,
  errors: v.pipe(v.array(ErrorLine), v.description("The latest socket, membership and description errors, newest first (at most 20)")),
  events_stored: v.number(),
  oldest_event_at: Str,
  limits: v.object({ per_source_per_second: v.number(), max_stored_events: v.number(), retention_days: v.number() }),
  sidecars: v.array(
    v.object({
      owner: v.string(),
      listening: v.boolean(),
      updated_at: v.string(),
      started_at: Str,
      interfaces: v.array(v.string()),
      groups: v.array(v.string()),
      counts: PerProtocol,
      descriptions: v.object({ fetched: v.number(), refused: v.number(), failed: v.number() }),
      last_packet_at: Str,
      errors: v.array(ErrorLine),
    }),
  ),
});
export type ListenerStatusOutT = v.InferOutput<typeof ListenerStatusOut>;

export const ListenerEventOut = v.object({
  id: v.number(),
  received_at: v.string(),
  protocol: v.pipe(v.string(), v.description("mdns | ssdp")),
  kind: v.pipe(v.string(), v.description("response | query | notify | byebye | search | search_response")),
  source: v.pipe(v.string(), v.description("The packet's source address")),
  address: v.pipe(Str, v.description("The device's IPv4 address (an A record of the announced host, else the source)")),
  mac_address: Str,
  hostname: Str,
  services: v.array(v.object({ type: v.string(), name: Str, port: v.nullable(v.number()), protocol: v.string() })),
  vendor: Str,
  model: Str,
  serial_number: Str,
  location: v.pipe(Str, v.description("SSDP: the announced description URL")),
  usn: Str,
  server: Str,
  heard_by: v.pipe(v.string(), v.description("The sidecar that heard it")),
});
export type ListenerEventOutT = v.InferOutput<typeof ListenerEventOut>;
export const ListenerEventList = listResponse(ListenerEventOut);

const oneOf = <const T extends readonly string[]>(values: T) => v.picklist(values, `Must be one of: ${values.join(", ")}.`);

export const ListenerEventsQuery = listQuery(["received_at", "id"], {
  protocol: v.optional(oneOf(LISTENER_PROTOCOLS)),
  kind: v.optional(oneOf(LISTENER_EVENT_KINDS)),
  address: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(64),
      v.check((s) => parseAddress(s).ok, "Must be an IP address."),
    ),
  ),
  direction: v.optional(oneOf(["asc", "desc"] as const), "desc"),
});
