// Google Chat space incoming webhook (POST JSON to the secret URL with its key and token): a text
// message in the thread keyed by the incident, so a recovery replies under the alert it ends.
import { ALERT_LINK_TEXT, byteLength, clipBytes, markOf } from "../message-text.ts";
import { type HttpNotifier, jsonRequest, SECRET_WEBHOOK_URL } from "./notifier.ts";

/** A message is 32,000 bytes at most, text and all; the rest of the request is the thread key. */
const TEXT_BYTES = 30000;
/** Reply in the keyed thread, or start it when there is none yet (spaces.messages.create). */
const REPLY_OPTION = "REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD";

/** The webhook URL as the space gave it, with the reply option added unless the operator set one. */
function withReplyOption(webhookUrl: string): string {
  if (new URL(webhookUrl).searchParams.has("messageReplyOption")) return webhookUrl;
  return `${webhookUrl}${webhookUrl.includes("?") ? "&" : "?"}messageReplyOption=${REPLY_OPTION}`;
}

export const google_chat = {
  type: "google_chat",
  label: "Google Chat",
  transport: "http",
  fields: {
    webhook_url: {
      ...SECRET_WEBHOOK_URL.webhook_url,
      hint: "The space's webhook URL (Apps & integrations → Webhooks), with its key and token.",
    },
  },
  render: ({ secrets, message: m }) => {
    const link = m.links.alert ? `\n<${m.links.alert}|${ALERT_LINK_TEXT}>` : "";
    return jsonRequest(withReplyOption(secrets.webhook_url!), {
      text: clipBytes(`${markOf(m)} *${m.title}*\n${m.body}`, TEXT_BYTES - byteLength(link)) + link,
      thread: { threadKey: m.dedup_key },
    });
  },
} satisfies HttpNotifier<"google_chat">;
