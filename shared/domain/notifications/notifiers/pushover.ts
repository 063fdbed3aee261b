// Pushover's message API (POST /1/messages.json, JSON): priority from the severity, -2 (silent) .. 2
// (emergency: repeated every `retry` seconds until acknowledged or `expire` seconds passed). A critical
// alert is an emergency only when the sink says so.
import { unixSeconds } from "../message-text.ts";
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

/** Pushover priority from our severity: high (bypasses quiet hours), normal, low (no sound). */
const PRIORITY = { critical: 1, warning: 0, info: -1 } as const;
const EMERGENCY = 2;

export const pushover = {
  type: "pushover",
  label: "Pushover",
  transport: "http",
  fields: {
    token: { kind: "string", secret: true, required: true, hint: "Your Pushover application's API token." },
    user: { kind: "string", required: true, hint: "The user or group key to notify." },
    device: { kind: "string", hint: "Only this device of the user (default: all of them)." },
    priority: {
      kind: "integer",
      min: -2,
      max: 2,
      hint: "A fixed priority for every alert, -2 (silent) .. 2 (emergency) (default: 1 critical, 0 warning, -1 info).",
    },
    emergency: { kind: "bool", hint: "Send critical alerts at emergency priority: repeated until someone acknowledges them in Pushover." },
    retry: { kind: "integer", min: 30, max: 10800, hint: "Emergency: seconds between repeats (default 60)." },
    expire: { kind: "integer", min: 30, max: 10800, hint: "Emergency: seconds before the repeats stop unacknowledged (default 3600)." },
    base_url: { kind: "url", hint: "Default https://api.pushover.net." },
  },
  render: ({ config, secrets, message: m }) => {
    // A recovery is good news: low priority, never an emergency.
    const priority =
      m.status === "resolved"
        ? PRIORITY.info
        : Number(config.priority ?? (config.emergency === true && m.severity === "critical" ? EMERGENCY : PRIORITY[m.severity]));
    return jsonRequest(`${baseUrl(config, "https://api.pushover.net")}/1/messages.json`, {
      token: secrets.token,
      user: config.user,
      ...(config.device ? { device: config.device } : {}),
      // The documented limits: title 250, message 1024, url 512 characters.
      title: clip(m.title, 250),
      message: clip(m.body, 1024),
      priority,
      timestamp: unixSeconds(m),
      ...(m.links.alert && m.links.alert.length <= 512 ? { url: m.links.alert, url_title: "Open the alert" } : {}),
      // An emergency is tagged with its incident, so that it can be cancelled by tag (cancel_by_tag).
      ...(priority === EMERGENCY ? { retry: Number(config.retry ?? 60), expire: Number(config.expire ?? 3600), tags: m.dedup_key } : {}),
    });
  },
} satisfies HttpNotifier<"pushover">;
