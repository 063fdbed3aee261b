// Mattermost incoming webhook (POST JSON to the secret /hooks/<key> URL): the headline as the post's
// text, the body in one attachment coloured by severity whose title links to the alert.
import { colorOf, levelLine, markOf } from "../message-text.ts";
import { clip, type HttpNotifier, jsonRequest, SECRET_WEBHOOK_URL } from "./notifier.ts";

/** A post is 16,383 characters at most (Mattermost 5.0+); longer text is split into several posts. */
const POST_CHARS = 16383;

export const mattermost = {
  type: "mattermost",
  label: "Mattermost",
  transport: "http",
  fields: {
    ...SECRET_WEBHOOK_URL,
    channel: { kind: "string", hint: "Posts to this channel (its name, e.g. town-square, or @username) instead of the webhook's own." },
    username: { kind: "string", hint: "Posts under this name; the server must let integrations override usernames." },
    icon_url: { kind: "url", hint: "Posts with this picture; the server must let integrations override profile pictures." },
  },
  render: ({ config, secrets, message: m }) => {
    const headline = `${markOf(m)} ${m.title}`;
    return jsonRequest(secrets.webhook_url!, {
      text: clip(`**${headline}**`, 1000),
      ...(config.channel ? { channel: config.channel } : {}),
      ...(config.username ? { username: config.username } : {}),
      ...(config.icon_url ? { icon_url: config.icon_url } : {}),
      attachments: [
        {
          fallback: clip(`${headline}: ${m.body}`, 1000),
          color: colorOf(m),
          title: levelLine(m),
          ...(m.links.alert ? { title_link: m.links.alert } : {}),
          text: clip(m.body, POST_CHARS - 1000),
        },
      ],
    });
  },
} satisfies HttpNotifier<"mattermost">;
