// Pushbullet's POST /v2/pushes with the access token in Access-Token: a "link" push when the alert has a
// console link, else a "note"; to every device of the account, one device, or a channel's subscribers.
import { statusTag } from "../message-text.ts";
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

export const pushbullet = {
  type: "pushbullet",
  label: "Pushbullet",
  transport: "http",
  fields: {
    access_token: { kind: "string", secret: true, required: true, hint: "An access token (Settings → Account → Create Access Token)." },
    device_iden: { kind: "string", hint: "Only this device (its iden); default: every device of the account." },
    channel_tag: { kind: "string", hint: "Push to the subscribers of this channel (its tag) instead." },
    base_url: { kind: "url", hint: "Default https://api.pushbullet.com." },
  },
  render: ({ config, secrets, message: m }) =>
    jsonRequest(
      `${baseUrl(config, "https://api.pushbullet.com")}/v2/pushes`,
      {
        // Pushbullet has no priority: the title says what the push is.
        type: m.links.alert ? "link" : "note",
        title: clip(`${statusTag(m)} ${m.title}`, 250),
        body: clip(m.body),
        ...(m.links.alert ? { url: m.links.alert } : {}),
        ...(config.device_iden ? { device_iden: config.device_iden } : {}),
        ...(config.channel_tag ? { channel_tag: config.channel_tag } : {}),
      },
      { "access-token": secrets.access_token! },
    ),
} satisfies HttpNotifier<"pushbullet">;
