// Home Assistant's REST API: POST /api/services/notify/<service> with a long-lived access token. On the
// companion apps (notify.mobile_app_*) the incident's key is the notification's tag, so the recovery
// replaces the alert on the phone, and a critical alert is sent at high priority and time-sensitive.
import { clipBytes } from "../message-text.ts";
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

/** A push reaches the phone through APNs or FCM, whose payload is 4 KB in all: the text is cut below. */
const MESSAGE_BYTES = 3000;

/** The companion apps' delivery options by severity (Android priority and ttl, iOS interruption level). */
const DELIVERY = {
  critical: { priority: "high", ttl: 0, push: { "interruption-level": "time-sensitive" } },
  warning: { push: { "interruption-level": "active" } },
  info: { push: { "interruption-level": "passive" } },
} as const;

export const home_assistant = {
  type: "home_assistant",
  label: "Home Assistant",
  transport: "http",
  fields: {
    base_url: { kind: "url", required: true, hint: "The Home Assistant server, e.g. http://homeassistant.local:8123." },
    token: { kind: "string", secret: true, required: true, hint: "A long-lived access token (your profile → Security)." },
    service: {
      kind: "string",
      required: true,
      hint: "The notify service, e.g. mobile_app_pixel_8 (notify.mobile_app_pixel_8 in Developer tools → Actions).",
    },
  },
  render: ({ config, secrets, message: m }) => {
    const service = String(config.service).replace(/^notify\./, "");
    return jsonRequest(
      `${baseUrl(config)}/api/services/notify/${encodeURIComponent(service)}`,
      {
        title: clip(m.title, 200),
        message: clipBytes(m.body, MESSAGE_BYTES),
        data: {
          tag: m.dedup_key,
          ...(m.status === "resolved" ? DELIVERY.info : DELIVERY[m.severity]),
          ...(m.links.alert ? { url: m.links.alert, clickAction: m.links.alert } : {}),
        },
      },
      { authorization: `Bearer ${secrets.token}` },
    );
  },
} satisfies HttpNotifier<"home_assistant">;
