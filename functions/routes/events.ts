// [events] GET /events/stream and GET /events/status (spec 4.4, 6.3): the UI streams' live events as
// server-sent events, and the state of that fan-out. The events live in the process that LISTENs (the
// sidecar's streams worker); bin/start.ts hands its feed in through createApp. A process without one
// (the edge, a split functions instance) answers 503 saying where the stream is served.
import type { Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { ApiError } from "../../shared/errors.ts";
import { resolveCredential } from "../../shared/identity/credential.ts";
import { EventStreamBody, EventsStatus, EventsStreamQuery } from "../../shared/schemas/events.ts";
import { type Actor, actorCan } from "../../shared/verbs/actor.ts";
import type { EventChannel } from "../../shared/verbs/verb.ts";
import { STREAMS, streamByChannel } from "../../shared/streams/catalogue.ts";
import type { EventFeed } from "../../shared/streams/event-feed.ts";
import { EVENT_ID_SHAPE, parseEventId } from "../../shared/streams/event-id.ts";
import type { AppEnv } from "../deps.ts";
import { presentedCredential } from "../middleware/authenticate.ts";
import { route } from "../openapi/route.ts";
import { pumpEvents } from "./events-pump.ts";

const STREAM_DESCRIPTION = [
  "Every event the UI WebSocket streams carry (spec 4.5), on the channels the caller may read (`read:<channel>`), as `text/event-stream`.",
  "Each event: `id: <epoch>-<seq>` (increasing within a process), `event: <channel>` (topology, discovery, telemetry, monitors, agents), `data:` the same JSON frame the channel's WebSocket sends.",
  "Also `event: ready` once replay is done, a `: heartbeat` comment after each quiet interval, and `event: close {reason}` (going_away, unauthorized, forbidden) before the server ends a stream.",
  "Resumption: send `Last-Event-ID` (or `?last_event_id=`) and the events after it are replayed from a ring of the latest events of this process; when that id is too old or not this process's, `event: reset {reason, last_event_id, oldest_id, newest_id}` comes instead: reload the state you keep.",
  "A client that reads too slowly is disconnected; it may reconnect with its Last-Event-ID.",
].join("\n\n");

function requireFeed(feed: EventFeed | undefined): EventFeed {
  if (feed) return feed;
  throw new ApiError(
    "SERVICE_NOT_READY",
    "Live events are served by the sidecar process (npm start, or npm run start:sidecar in a split deployment); this instance has no event source. Send /api/v1/events/* to the sidecar.",
  );
}

const queryIssue = (loc: string[], msg: string, type: string) => ApiError.validation([{ loc, msg, type }]);

/** The channels to send: those asked for (each must be readable) or every readable one. */
function channelsFor(actor: Actor, asked: string | undefined): Set<EventChannel> {
  if (asked === undefined) {
    const readable = STREAMS.filter((s) => actorCan(actor, s.scope)).map((s) => s.channel);
    if (readable.length === 0) throw ApiError.forbidden(`This stream needs one of the scopes ${STREAMS.map((s) => s.scope).join(", ")}.`);
    return new Set(readable);
  }
  const names = [...new Set(asked.split(",").map((n) => n.trim()))];
  const defs = names.map((name) => STREAMS.find((s) => s.channel === name));
  const unknown = names.filter((_, i) => !defs[i]);
  if (unknown.length > 0 || names.length === 0)
    throw queryIssue(
      ["query", "channels"],
      `Unknown channel(s) ${unknown.map((n) => `"${n}"`).join(", ")}; one or more of: ${STREAMS.map((s) => s.channel).join(", ")}.`,
      "channel",
    );
  const denied = defs.filter((d) => !actorCan(actor, d!.scope));
  if (denied.length > 0) throw ApiError.forbidden(`This stream needs the ${denied.map((d) => d!.scope).join(", ")} scope.`);
  return new Set(defs.map((d) => d!.channel));
}

/** The position to resume after: the header (what EventSource sends; empty means none) wins over the query. */
function resumeFrom(c: Context<AppEnv>, fromQuery: string | undefined): string | undefined {
  const header = c.req.header("last-event-id");
  const [value, loc] =
    header !== undefined && header !== "" ? [header, ["header", "Last-Event-ID"]] : [fromQuery, ["query", "last_event_id"]];
  if (value === undefined) return undefined;
  if (!parseEventId(value)) throw queryIssue(loc, `Not an event id of this service (${EVENT_ID_SHAPE}).`, "event_id");
  return value.trim();
}

export function eventsRoutes(app: Hono<AppEnv>, feed: EventFeed | undefined): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/events/stream",
      tag: "events",
      summary: "Live events of every UI stream the caller may read, as server-sent events, resumable with Last-Event-ID",
      description: STREAM_DESCRIPTION,
      query: EventsStreamQuery,
      response: { schema: EventStreamBody, contentType: "text/event-stream", description: "The event stream (stays open)" },
      errors: [403, 422, 503],
    },
    (c, { query }) => {
      // Bad input is refused first, the same on every build; only then does a process without the feed say so.
      const actor = c.get("actor")!;
      const channels = channelsFor(actor, query.channels);
      const lastEventId = resumeFrom(c, query.last_event_id);
      const source = requireFeed(feed);
      // Hono answers HEAD with the GET handler and drops the body unread: no subscription for it.
      if (c.req.method === "HEAD") return c.body(null, 200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const sub = source.open({ actor, channels, lastEventId });
      const deps = c.get("deps");
      const db = c.get("db");
      const credential = presentedCredential(c)?.credential;
      const recheck = async () => {
        if (credential === undefined) return "unauthorized" as const;
        const resolution = await resolveCredential(deps, db, credential);
        if (!("actor" in resolution)) return "unauthorized" as const;
        return [...channels].every((ch) => actorCan(resolution.actor, streamByChannel(ch).scope)) ? undefined : ("forbidden" as const);
      };
      // Reverse proxies that buffer (nginx) pass the events on at once.
      c.header("X-Accel-Buffering", "no");
      return streamSSE(c, (stream) =>
        pumpEvents(stream, {
          sub,
          channels: [...channels],
          heartbeatMs: source.heartbeatMs,
          revalidateMs: source.revalidateMs,
          recheck,
          logger: deps.logger,
        }),
      );
    },
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/events/status",
      tag: "events",
      summary: "State of this process's event stream: clients, channels, the replay buffer",
      response: { schema: EventsStatus },
      errors: [503],
    },
    (_c, { reply }) => reply(requireFeed(feed).status()),
  );
}
