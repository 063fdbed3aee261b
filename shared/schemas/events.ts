// GET /events/stream and GET /events/status (spec 4.4 "events", 6.3): the query and the body of the stream and the
// status shape. The stream's framing is documented on its route (functions/routes/events.ts).
import * as v from "valibot";
import { EVENT_ID_SHAPE } from "../streams/event-id.ts";

export const EventsStreamQuery = v.object({
  channels: v.optional(
    v.pipe(v.string(), v.maxLength(200), v.description("Comma-separated channels to receive (default: every channel the caller may read)")),
  ),
  last_event_id: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(64),
      v.description(`Resume after this event, for clients that cannot send the Last-Event-ID header (the header wins): ${EVENT_ID_SHAPE}`),
    ),
  ),
});

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const EventsStatus = v.object({
  accepting: v.pipe(v.boolean(), v.description("Whether new streams are taken (false before start and while draining)")),
  connected_clients: v.pipe(Count, v.description("Open event streams in this process")),
  channels: v.array(
    v.object({
      channel: v.string(),
      scope: v.pipe(v.string(), v.description("The scope a caller needs to receive it")),
      listening: v.pipe(v.boolean(), v.description("Whether this process LISTENs on the channel")),
      clients: v.pipe(Count, v.description("Open streams receiving this channel")),
    }),
  ),
  buffer: v.object({
    capacity: v.pipe(Count, v.description("Events kept for resumption with Last-Event-ID")),
    size: v.pipe(Count, v.description("Events held now")),
    oldest_id: v.pipe(
      v.nullable(v.string()),
      v.description(
        "The oldest event held; a client whose Last-Event-ID is the one before it or later resumes without a reset (null when empty)",
      ),
    ),
    newest_id: v.pipe(v.nullable(v.string()), v.description("The id of the latest event (null before the first)")),
  }),
  events_total: v.pipe(Count, v.description("Events this process has streamed since it started")),
  dropped_clients: v.pipe(Count, v.description("Streams ended because the client read too slowly")),
  heartbeat_interval_s: v.pipe(v.number(), v.description("A comment line is sent after this long without an event")),
  client_queue_bytes: v.pipe(Count, v.description("Unsent data a stream may hold before it is dropped")),
  max_connections_per_user: v.pipe(Count, v.description("Open streams per user, counted with the WebSocket streams")),
});
export type EventsStatus = v.InferOutput<typeof EventsStatus>;

/** GET /events/stream's body, documented as text/event-stream. */
export const EventStreamBody = v.pipe(
  v.string(),
  v.description("A text/event-stream of `id`, `event`, `data` records (see the description)."),
);
