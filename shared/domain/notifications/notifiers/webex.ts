// Webex messages API (POST /v1/messages) as a bot: its token as a Bearer, a Markdown message to a room or,
// for an email address, to that person directly.
import { ALERT_LINK_TEXT, byteLength, clipBytes, markOf } from "../message-text.ts";
import { baseUrl, type HttpNotifier, jsonRequest } from "./notifier.ts";

/** A message is 7,439 bytes at most. */
const MESSAGE_BYTES = 7439;

export const webex = {
  type: "webex",
  label: "Webex",
  transport: "http",
  fields: {
    base_url: { kind: "url", hint: "The API's address when it is not https://webexapis.com." },
    bot_token: { kind: "string", secret: true, required: true, hint: "The bot's access token (developer.webex.com → My Webex Apps)." },
    to: {
      kind: "string",
      required: true,
      hint: "A room ID (the bot must be a member) or a person's email address for a direct message.",
    },
  },
  render: ({ config, secrets, message: m }) => {
    // A room ID is base64 and never holds an "@"; an email address always does.
    const to = String(config.to);
    const link = m.links.alert ? `\n\n[${ALERT_LINK_TEXT}](${m.links.alert})` : "";
    return jsonRequest(
      `${baseUrl(config, "https://webexapis.com")}/v1/messages`,
      {
        ...(to.includes("@") ? { toPersonEmail: to } : { roomId: to }),
        markdown: clipBytes(`${markOf(m)} **${m.title}**\n\n${m.body}`, MESSAGE_BYTES - byteLength(link)) + link,
      },
      { authorization: `Bearer ${secrets.bot_token}` },
    );
  },
} satisfies HttpNotifier<"webex">;
