// Matrix client-server API: PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId} with the
// bot's access token. The transaction ID comes from the delivery, so a retried attempt that the
// homeserver already took answers the same event instead of posting the alert twice.
import { ALERT_LINK_TEXT, clipBytes, escapeHtml, markOf } from "../message-text.ts";
import { baseUrl, type HttpNotifier, jsonRequest } from "./notifier.ts";

/**
 * An event is 65,536 bytes at most (spec: size limits); the body appears twice (plain and HTML, where
 * escaping can grow it up to six times), so the alert's text is cut well below.
 */
const BODY_BYTES = 8000;

/** A path segment with every reserved character escaped: encodeURIComponent leaves the "!" of a room ID. */
const segment = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export const matrix = {
  type: "matrix",
  label: "Matrix",
  transport: "http",
  fields: {
    base_url: { kind: "url", required: true, hint: "The homeserver's client API, e.g. https://matrix.example.org." },
    access_token: { kind: "string", secret: true, required: true, hint: "The access token of the bot account that posts." },
    room_id: {
      kind: "string",
      required: true,
      hint: "The room's internal ID (!abc123:example.org, in the room's advanced settings), not its #alias; the bot must have joined it.",
    },
  },
  render: ({ config, secrets, message: m }) => {
    const headline = `${markOf(m)} ${m.title}`;
    const body = clipBytes(m.body, BODY_BYTES);
    const link = m.links.alert;
    const txnId = `${m.id}.${Date.parse(m.occurred_at)}`;
    return {
      ...jsonRequest(
        `${baseUrl(config)}/_matrix/client/v3/rooms/${segment(String(config.room_id))}/send/m.room.message/${segment(txnId)}`,
        {
          msgtype: "m.text",
          body: [headline, body, link ? `${ALERT_LINK_TEXT}: ${link}` : ""].filter(Boolean).join("\n\n"),
          format: "org.matrix.custom.html",
          formatted_body:
            `<p><strong>${escapeHtml(headline)}</strong></p><p>${escapeHtml(body).replaceAll("\n", "<br>")}</p>` +
            (link ? `<p><a href="${escapeHtml(link)}">${ALERT_LINK_TEXT}</a></p>` : ""),
        },
        { authorization: `Bearer ${secrets.access_token}` },
      ),
      method: "PUT",
    };
  },
} satisfies HttpNotifier<"matrix">;
