// Bark, the iOS push app (bark.day.app, "API V2": POST /push with JSON): the device key is who it reaches
// (anyone holding it can push to that phone, so it is secret); api.day.app unless the sink names its own
// bark-server. The interruption level is mapped from the severity: a critical alert breaks through mute
// and Focus, a recovery never does.
import { clipBytes, headline } from "../message-text.ts";
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

const LEVELS = ["critical", "timeSensitive", "active", "passive"] as const;
const LEVEL = { critical: "critical", warning: "timeSensitive", info: "active" } as const;
/** An APNs payload is at most 4 KB: the body keeps well inside it. */
const BODY_BYTES = 3000;

export const bark = {
  type: "bark",
  label: "Bark (iOS)",
  transport: "http",
  fields: {
    base_url: { kind: "url", hint: "Your own bark-server; empty for the public https://api.day.app." },
    device_key: { kind: "string", secret: true, required: true, hint: "The key in the app's test URL: https://api.day.app/<key>/…" },
    group: { kind: "string", hint: "The group the notifications are listed under in the app (default: alerts)." },
    level: {
      kind: "choice",
      options: LEVELS,
      hint: "A fixed interruption level; empty: critical for critical alerts, timeSensitive for warnings, active otherwise.",
    },
  },
  render: ({ config, secrets, message: m }) =>
    jsonRequest(`${baseUrl(config, "https://api.day.app")}/push`, {
      device_key: secrets.device_key,
      title: clip(headline(m), 200),
      body: clipBytes(m.body, BODY_BYTES),
      level: typeof config.level === "string" ? config.level : m.status === "resolved" ? "active" : LEVEL[m.severity],
      group: typeof config.group === "string" ? config.group : "alerts",
      ...(m.links.alert ? { url: m.links.alert } : {}),
    }),
} satisfies HttpNotifier<"bark">;
