// Signal through a signal-cli-rest-api server (bbernhard/signal-cli-rest-api) the operator runs: POST
// /v2/send with the registered sender number and the recipients. The server has no credentials of its
// own; it belongs on a private network, reached through the outbound policy.
import { ALERT_LINK_TEXT, markOf } from "../message-text.ts";
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

/** Signal sends text past 2,000 characters as an attachment ("read more"): the alert is kept inline. */
const MESSAGE_CHARS = 2000;

export const signal = {
  type: "signal",
  label: "Signal (signal-cli REST API)",
  transport: "http",
  fields: {
    base_url: { kind: "url", required: true, hint: "The signal-cli-rest-api server, e.g. http://signal-api:8080." },
    number: { kind: "string", required: true, hint: "The sender: the number registered or linked in signal-cli, e.g. +4915112345678." },
    recipients: {
      kind: "string",
      required: true,
      hint: "Comma-separated phone numbers (+E.164) or group IDs (group.…) to send to.",
    },
  },
  render: ({ config, message: m }) => {
    const link = m.links.alert ? `\n\n${ALERT_LINK_TEXT}: ${m.links.alert}` : "";
    return jsonRequest(`${baseUrl(config)}/v2/send`, {
      message: clip(`${markOf(m)} ${m.title}\n\n${m.body}`, MESSAGE_CHARS - link.length) + link,
      number: config.number,
      recipients: String(config.recipients)
        .split(",")
        .map((r) => r.trim())
        .filter(Boolean),
    });
  },
} satisfies HttpNotifier<"signal">;
