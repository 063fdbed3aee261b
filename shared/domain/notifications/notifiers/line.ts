// LINE Messaging API push message (developers.line.biz/en/reference/messaging-api/#send-push-message):
// POST /v2/bot/message/push with the channel access token as Bearer (the secret) and `{to, messages}`,
// one text message of at most 5000 characters. Every attempt carries X-Line-Retry-Key, a UUID derived
// from the delivery, so a retry after a lost answer is not sent twice: LINE answers such a retry 409
// ("already accepted"), which means it was sent.
import { headline } from "../message-text.ts";
import { nameUuid } from "../signing.ts";
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

export const line = {
  type: "line",
  label: "LINE",
  transport: "http",
  fields: {
    base_url: { kind: "url", hint: "Empty for https://api.line.me (a proxy in front of it otherwise)." },
    channel_access_token: {
      kind: "string",
      secret: true,
      required: true,
      hint: "The channel access token (long-lived) from the LINE Developers console, Messaging API tab.",
    },
    to: { kind: "string", required: true, hint: "The user, group or room ID to push to (U…, C… or R…), not a LINE ID." },
  },
  async render({ config, secrets, message: m }) {
    const text = clip(`${headline(m)}\n\n${m.body}${m.links.alert ? `\n\n${m.links.alert}` : ""}`, 5000);
    return {
      ...jsonRequest(
        `${baseUrl(config, "https://api.line.me")}/v2/bot/message/push`,
        { to: config.to, messages: [{ type: "text", text }] },
        { authorization: `Bearer ${secrets.channel_access_token}`, "x-line-retry-key": await nameUuid(m.id) },
      ),
      deliveredStatuses: [200, 409],
    };
  },
} satisfies HttpNotifier<"line">;
