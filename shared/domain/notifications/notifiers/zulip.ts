// Zulip's POST /api/v1/messages (form-encoded) as a bot: HTTP Basic with the bot's email and API key. A
// channel ("stream") message whose topic is the incident's, so the alert and its recovery land in one
// topic, unless the sink names a topic of its own.
import { basicAuth } from "../basic-auth.ts";
import { ALERT_LINK_TEXT, byteLength, clipBytes, markOf } from "../message-text.ts";
import { baseUrl, clip, type HttpNotifier } from "./notifier.ts";

/** Zulip's limits: a topic of 60 characters, a message of 10,000 bytes. */
const TOPIC_CHARS = 60;
const CONTENT_BYTES = 10000;

export const zulip = {
  type: "zulip",
  label: "Zulip",
  transport: "http",
  fields: {
    base_url: { kind: "url", required: true, hint: "The organization's URL, e.g. https://example.zulipchat.com." },
    bot_email: { kind: "string", required: true, hint: "The bot's email address (Personal settings → Bots)." },
    api_key: { kind: "string", secret: true, required: true, hint: "The bot's API key." },
    stream: { kind: "string", required: true, hint: "The channel (stream) to post in; the bot must be allowed to post there." },
    topic: {
      kind: "string",
      hint: "One topic for every alert; by default each incident has its own topic, shared by its alert and its recovery.",
    },
  },
  render: ({ config, secrets, message: m }) => {
    const link = m.links.alert ? `\n\n[${ALERT_LINK_TEXT}](${m.links.alert})` : "";
    const form = new URLSearchParams({
      type: "stream",
      to: String(config.stream),
      topic: clip(String(config.topic ?? m.dedup_key), TOPIC_CHARS),
      content: clipBytes(`${markOf(m)} **${m.title}**\n${m.body}`, CONTENT_BYTES - byteLength(link)) + link,
    });
    return {
      url: `${baseUrl(config)}/api/v1/messages`,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: basicAuth(String(config.bot_email), secrets.api_key!),
      },
      body: form.toString(),
    };
  },
} satisfies HttpNotifier<"zulip">;
