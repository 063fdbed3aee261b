// [discovery] the passive mDNS/SSDP listener (issue 28; docs/discovery-listener.md): its status across the
// sidecars and what it heard. Its results are scan results of the day's listener job (GET /discovery/results),
// and each flush is announced on /discovery/stream (`listener_events`, `results`).
import type { Hono } from "hono";
import { ListenerEventList, ListenerEventsQuery, ListenerStatusOut } from "../../../shared/schemas/discovery-listener.ts";
import { listenerStatus, listListenerEvents } from "../../../shared/verbs/discovery/listener/read-listener.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const BASE = "/api/v1/discovery/listener";

export function listenerRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: `${BASE}/status`,
      tag: "discovery",
      scope: listenerStatus.scope,
      response: { schema: ListenerStatusOut },
      summary: "Passive listener status",
      description:
        "The setting (enabled, interfaces), whether a sidecar listens, the groups joined, packets per protocol (accepted, malformed, rate-limited), the last packet's time, the latest errors, the events stored and the limits, and the same per sidecar. The listener only listens: it never answers or announces.",
    },
    async (c, { reply }) => reply(await listenerStatus({ ctx: verbContext(c), input: undefined })),
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/events`,
      tag: "discovery",
      scope: listListenerEvents.scope,
      query: ListenerEventsQuery,
      response: { schema: ListenerEventList },
      summary: "What the passive listener heard",
      description:
        "The list envelope, newest first unless `sort`/`direction` say otherwise. Filters: `protocol` (mdns, ssdp), `kind`, `address` (the device's or the packet's source address); `q` searches host name, vendor, model and USN. Kept at most 10,000 events and 7 days.",
    },
    async (c, { query, reply }) => reply(await listListenerEvents({ ctx: verbContext(c), input: query })),
  );
}
