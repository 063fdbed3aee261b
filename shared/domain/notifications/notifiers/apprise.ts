// Apprise API (github.com/caronc/apprise-api, "Persistent Storage Solution" and "Stateless Solution"): a
// self-hosted gateway to many services. POST {base_url}/notify/{key} for a configuration saved under a
// key, or {base_url}/notify/ with the Apprise URLs themselves (they hold the services' tokens, so they are
// secret). Only 200 is sent: 204 says no configuration (or tag) matched, 424 that a service refused.
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

/** Apprise's notification types: a recovery is a success, a firing alert a failure or warning by severity. */
const TYPE = { critical: "failure", warning: "warning", info: "info" } as const;

export const apprise = {
  type: "apprise",
  label: "Apprise API",
  transport: "http",
  fields: {
    base_url: { kind: "url", required: true, hint: "Your Apprise API server, e.g. http://apprise:8000." },
    config_key: {
      kind: "string",
      requiredUnless: "urls",
      missing: "config_key (or urls) is required for an apprise sink.",
      hint: "The {KEY} of a configuration saved in the Apprise API (stateful).",
    },
    urls: {
      kind: "string",
      secret: true,
      hint: "Instead of a key: the Apprise URLs to notify, separated by commas or spaces (stateless).",
    },
    tag: { kind: "string", hint: "With a key: the tag to notify (Apprise's rule: without one only untagged services; all for every one)." },
  },
  render: ({ config, secrets, message: m }) => {
    const base = baseUrl(config);
    const key = typeof config.config_key === "string" ? config.config_key : undefined;
    const note = {
      title: clip(m.title, 250),
      body: clip(`${m.body}${m.links.alert ? `\n\n${m.links.alert}` : ""}`),
      type: m.status === "resolved" ? "success" : TYPE[m.severity],
    };
    return {
      ...(key
        ? jsonRequest(`${base}/notify/${encodeURIComponent(key)}`, { ...note, ...(config.tag ? { tag: config.tag } : {}) })
        : jsonRequest(`${base}/notify/`, { urls: secrets.urls, ...note })),
      deliveredStatuses: [200],
    };
  },
} satisfies HttpNotifier<"apprise">;
