// Rocket.Chat incoming webhook integration (POST JSON to the secret /hooks/<id>/<token> URL): the
// headline as the message text, the body in one attachment coloured by severity whose title links to
// the alert.
import { colorOf, levelLine, markOf } from "../message-text.ts";
import { clip, type HttpNotifier, jsonRequest, SECRET_WEBHOOK_URL } from "./notifier.ts";

/** Rocket.Chat refuses messages over its Message_MaxAllowedSize, 5,000 characters unless changed. */
const MESSAGE_CHARS = 5000;

export const rocket_chat = {
  type: "rocket_chat",
  label: "Rocket.Chat",
  transport: "http",
  fields: {
    ...SECRET_WEBHOOK_URL,
    channel: { kind: "string", hint: "Posts to this #channel or @user instead of the integration's own." },
  },
  render: ({ config, secrets, message: m }) =>
    jsonRequest(secrets.webhook_url!, {
      text: clip(`${markOf(m)} *${m.title}*`, 1000),
      ...(config.channel ? { channel: config.channel } : {}),
      attachments: [
        {
          title: levelLine(m),
          ...(m.links.alert ? { title_link: m.links.alert } : {}),
          text: clip(m.body, MESSAGE_CHARS - 1000),
          color: colorOf(m),
        },
      ],
    }),
} satisfies HttpNotifier<"rocket_chat">;
