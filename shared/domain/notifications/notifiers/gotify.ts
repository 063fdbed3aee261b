// Gotify's POST /message with the application token in X-Gotify-Key.
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

/** gotify priority 0..10 from our severity, unless the sink fixes one. */
const priority = { critical: 8, warning: 5, info: 2 } as const;

export const gotify = {
  type: "gotify",
  transport: "http",
  fields: {
    base_url: { kind: "url", required: true },
    token: { kind: "string", secret: true, required: true },
    priority: { kind: "priority" },
  },
  render: ({ config, secrets, message: m }) =>
    jsonRequest(
      `${baseUrl(config)}/message`,
      { title: m.title, message: clip(m.body), priority: Number(config.priority ?? priority[m.severity]) },
      { "x-gotify-key": secrets.token! },
    ),
} satisfies HttpNotifier<"gotify">;
