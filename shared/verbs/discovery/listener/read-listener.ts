// GET /discovery/listener/status and /discovery/listener/events (issue 28 item 3): the setting, each
// sidecar's listener status as it last wrote it (a sidecar silent for STALE_MS is reported, not counted as
// listening), totals across them, and the stored events as a list page filtered by protocol, kind and address.
import { and, eq, or, type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { discoveryListenerEvents } from "../../../db/schema/index.ts";
import { emptyListenerStatus, LISTENER_LIMITS, type ListenerRuntimeStatus } from "../../../domain/discovery/listener.ts";
import type { ListenerEventOutT, ListenerStatusOutT } from "../../../schemas/discovery-listener.ts";
import type { ListParams } from "../../../schemas/list-query.ts";
import { readSetting } from "../../../settings/read.ts";
import { type ListPage, type ListSpec, listPage } from "../../resources/list.ts";
import { iso } from "../../resources/present.ts";
import { defineRead } from "../../verb.ts";
import { READ_DISCOVERY } from "../scopes.ts";

/** A sidecar whose status is older than this is reported as not listening (it writes one every 30 s). */
export const STALE_MS = 90_000;

export interface ListenerSettings {
  enabled: boolean;
  interfaces: string[];
}

export const readListenerSettings = defineRead<void, ListenerSettings>({ scope: READ_DISCOVERY }, async (ctx) => {
  const enabled = await readSetting(ctx.db, "discovery_listener_enabled");
  const interfaces = await readSetting(ctx.db, "discovery_listener_interfaces");
  return {
    enabled: enabled === true,
    interfaces: Array.isArray(interfaces) ? interfaces.filter((x): x is string => typeof x === "string") : [],
  };
});

export const listenerStatus = defineRead<void, ListenerStatusOutT>({ scope: READ_DISCOVERY }, async (ctx) => {
  const settings = await readListenerSettings({ ctx });
  const now = ctx.clock.now().getTime();
  const rows = await queryRows<{ owner: string; status: ListenerRuntimeStatus; updated_at: Date | string }>(
    ctx.db,
    sql`select owner, status, updated_at from discovery_listener_state order by owner`,
  );
  const [stored] = await queryRows<{ n: number; oldest: Date | string | null }>(
    ctx.db,
    sql`select count(*)::int as n, min(received_at) as oldest from discovery_listener_events`,
  );
  const total = emptyListenerStatus();
  const sidecars = rows.map((r) => {
    const st = { ...emptyListenerStatus(), ...r.status };
    const updated = new Date(r.updated_at);
    const live = now - updated.getTime() < STALE_MS;
    if (live) {
      for (const p of ["mdns", "ssdp"] as const) {
        total.packets[p] += st.packets[p] ?? 0;
        total.accepted[p] += st.accepted[p] ?? 0;
        total.malformed[p] += st.malformed[p] ?? 0;
        total.rate_limited[p] += st.rate_limited[p] ?? 0;
      }
      if (st.last_packet_at && (!total.last_packet_at || st.last_packet_at > total.last_packet_at))
        total.last_packet_at = st.last_packet_at;
      total.groups.push(...st.groups);
      total.errors.push(...st.errors);
    }
    return { owner: r.owner, listening: live && st.running, updated_at: updated.toISOString(), ...st };
  });
  total.errors.sort((a, b) => (a.at < b.at ? 1 : -1));
  return {
    enabled: settings.enabled,
    interfaces: settings.interfaces,
    listening: sidecars.some((x) => x.listening),
    groups: [...new Set(total.groups)],
    counts: { mdns: countsOf(total, "mdns"), ssdp: countsOf(total, "ssdp") },
    last_packet_at: total.last_packet_at,
    errors: total.errors.slice(0, 20),
    events_stored: stored?.n ?? 0,
    oldest_event_at: iso(stored?.oldest ? new Date(stored.oldest) : null),
    limits: {
      per_source_per_second: LISTENER_LIMITS.perSourcePerSecond,
      max_stored_events: LISTENER_LIMITS.maxStoredEvents,
      retention_days: LISTENER_LIMITS.retentionDays,
    },
    sidecars: sidecars.map((x) => ({
      owner: x.owner,
      listening: x.listening,
      updated_at: x.updated_at,
      started_at: x.started_at,
      interfaces: x.interfaces,
      groups: x.groups,
      counts: { mdns: countsOf(x, "mdns"), ssdp: countsOf(x, "ssdp") },
      descriptions: { fetched: x.descriptions_fetched, refused: x.descriptions_refused, failed: x.descriptions_failed },
      last_packet_at: x.last_packet_at,
      errors: x.errors,
    })),
  };
});

function countsOf(st: ListenerRuntimeStatus, p: "mdns" | "ssdp") {
  return {
    packets: st.packets[p] ?? 0,
    accepted: st.accepted[p] ?? 0,
    malformed: st.malformed[p] ?? 0,
    rate_limited: st.rate_limited[p] ?? 0,
  };
}

const SPEC: ListSpec = {
  table: discoveryListenerEvents,
  id: discoveryListenerEvents.id,
  sortable: { id: discoveryListenerEvents.id, received_at: discoveryListenerEvents.received_at },
  search: [discoveryListenerEvents.hostname, discoveryListenerEvents.vendor, discoveryListenerEvents.model, discoveryListenerEvents.usn],
};

export interface ListenerEventsInput extends ListParams {
  protocol?: string | undefined;
  kind?: string | undefined;
  address?: string | undefined;
}

type EventRow = typeof discoveryListenerEvents.$inferSelect;

export function presentEvent(r: EventRow): ListenerEventOutT {
  return {
    id: r.id,
    received_at: iso(r.received_at)!,
    protocol: r.protocol,
    kind: r.kind,
    source: r.source,
    address: r.address,
    mac_address: r.mac_address,
    hostname: r.hostname,
    services: r.services,
    vendor: r.vendor,
    model: r.model,
    serial_number: r.serial_number,
    location: r.location,
    usn: r.usn,
    server: r.server,
    heard_by: r.heard_by,
  };
}

export const listListenerEvents = defineRead<ListenerEventsInput, ListPage<ListenerEventOutT>>({ scope: READ_DISCOVERY }, (ctx, input) => {
  const where: (SQL | undefined)[] = [
    input.protocol !== undefined ? eq(discoveryListenerEvents.protocol, input.protocol) : undefined,
    input.kind !== undefined ? eq(discoveryListenerEvents.kind, input.kind) : undefined,
    input.address !== undefined
      ? or(eq(discoveryListenerEvents.address, input.address), eq(discoveryListenerEvents.source, input.address))
      : undefined,
  ];
  return listPage<EventRow, ListenerEventOutT>(ctx.db, SPEC, input, [and(...where)], (rows) => rows.map(presentEvent));
});
