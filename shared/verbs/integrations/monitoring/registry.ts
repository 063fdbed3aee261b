// The monitoring integrations a user can add (reference integrations/registry.py): Uptime Kuma and the
// built-in monitors, with the config fields a client renders for each.
export const INTEGRATION_TYPES = ["uptime_kuma", "native"] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

export const isIntegrationType = (t: string): t is IntegrationType => (INTEGRATION_TYPES as readonly string[]).includes(t);

export const NATIVE_NAME = "Built-in Monitors";

export const REGISTRY = [
  {
    type: "uptime_kuma",
    display_name: "Uptime Kuma",
    config_fields: [
      { name: "base_url", label: "Base URL", type: "url", required: true, secret: false, placeholder: "http://uptime-kuma:3001" },
      { name: "slug", label: "Status page slug", type: "text", required: false, secret: false, placeholder: "default" },
      { name: "api_key", label: "API key (for /metrics)", type: "password", required: false, secret: true, placeholder: null },
    ],
  },
  { type: "native", display_name: NATIVE_NAME, config_fields: [] },
];
