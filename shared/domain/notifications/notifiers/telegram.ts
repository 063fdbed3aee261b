// Telegram's Bot API sendMessage; the bot token is in the path, so the whole URL is secret.
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

export const telegram = {
  type: "telegram",
  transport: "http",
  fields: {
    base_url: { kind: "url" },
    bot_token: { kind: "string", secret: true, required: true },
    chat_id: { kind: "string", required: true },
  },
  render: ({ config, secrets, message: m }) => ({
    ...jsonRequest(`${baseUrl(config, "https://api.telegram.org")}/bot${secrets.bot_token}/sendMessage`, {
      chat_id: config.chat_id,
      text: clip(`${m.title}\n\n${m.body}`),
      disable_web_page_preview: true,
    }),
    expectJson: { field: "ok", equals: true },
  }),
} satisfies HttpNotifier<"telegram">;
