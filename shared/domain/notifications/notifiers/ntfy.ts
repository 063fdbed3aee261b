// ntfy's JSON publish (POST / with the topic in the body); ntfy.sh unless the sink names its own server.
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

/** ntfy priority 1..5 from our severity, unless the sink fixes one. */
const priority = { critical: 5, warning: 4, info: 3 } as const;

export const ntfy = {
  type: "ntfy",
  transport: "http",
  fields: {
    base_url: { kind: "url" },
    topic: { kind: "string", required: true },
    token: { kind: "string", secret: true },
    priority: { kind: "priority" },
  },
  render: ({ config, secrets, message: m }) =>
    jsonRequest(
      `${baseUrl(config, "https://ntfy.sh")}/`,
      {
        topic: config.topic,
        title: clip(m.title, 256),
        message: clip(m.body),
        priority: Math.min(5, Number(config.priority ?? priority[m.severity])),
        tags: [m.severity === "info" ? "white_check_mark" : "rotating_light", m.kind],
      },
      secrets.token ? { authorization: `Bearer ${secrets.token}` } : {},
    ),
} satisfies HttpNotifier<"ntfy">;
