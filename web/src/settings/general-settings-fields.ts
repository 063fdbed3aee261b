// The plain application settings (PUT /settings) as form fields, grouped by area. Keys and enum values are
// typed against the API's body, so a renamed key or value fails `npm run build:web`. The bounds are the
// inputs' hints only: the server's rules (shared/verbs/settings/rules.ts) decide, and their 422 is shown
// on the field. The rate-limit profile is changed in "Vault and rate limits"; SMTP has its own section.
import type { paths } from "../api/client.ts";

export type SettingsBody = NonNullable<paths["/api/v1/settings"]["put"]["requestBody"]>["content"]["application/json"];
type Key = keyof SettingsBody & string;
type Options<K extends Key> = ReadonlyArray<NonNullable<SettingsBody[K]>>;

export type SettingField =
  | { key: Key; label: string; hint?: string; kind: "number"; min: number; max: number }
  | { key: Key; label: string; hint?: string; kind: "boolean" }
  | { key: Key; label: string; hint?: string; kind: "text"; placeholder?: string }
  | { key: Key; label: string; hint?: string; kind: "lines" }
  | { key: Key; label: string; hint?: string; kind: "enum"; options: readonly string[] }
  | {
      key: "outbound_policy" | "monitor_policy";
      label: string;
      hint?: string;
      kind: "flags";
      flags: ReadonlyArray<{ flag: keyof NonNullable<SettingsBody["outbound_policy"]>; label: string }>;
    };

const roles: Options<"registration_default_role"> = ["viewer", "demo", "editor"];

export const SETTING_GROUPS: ReadonlyArray<{ id: string; title: string; fields: readonly SettingField[] }> = [
  {
    id: "general",
    title: "General",
    fields: [
      {
        key: "public_url",
        label: "Public URL",
        kind: "text",
        placeholder: "https://ops.example.com",
        hint: "http(s)://host[:port], no path; links in emails and OAuth callbacks are built from it. Empty: the PUBLIC_URL environment variable",
      },
      { key: "onboarding_dismissed", label: "Hide the onboarding checklist", kind: "boolean" },
    ],
  },
  {
    id: "security",
    title: "Sign-in and security",
    fields: [
      { key: "session_timeout_hours", label: "Session lifetime (hours)", kind: "number", min: 1, max: 720 },
      { key: "lockout_threshold", label: "Failed sign-ins before a lockout", kind: "number", min: 1, max: 100 },
      { key: "lockout_minutes", label: "Lockout (minutes)", kind: "number", min: 1, max: 1440 },
      { key: "invite_expiry_hours", label: "Invitations expire after (hours)", kind: "number", min: 1, max: 720 },
      { key: "masquerade_minutes", label: "Masquerade sessions last (minutes)", kind: "number", min: 1, max: 1440 },
      { key: "allow_registration", label: "Anyone may register an account", kind: "boolean" },
      {
        key: "registration_default_role",
        label: "Role of a self-registered user",
        kind: "enum",
        options: roles,
        hint: "Never more than editor",
      },
      { key: "demo_enabled", label: "Demo mode", kind: "boolean" },
    ],
  },
  {
    id: "outbound",
    title: "Outbound requests",
    fields: [
      {
        key: "outbound_policy",
        label: "Addresses operator-configured URLs may reach (integrations, notification sinks, sign-in providers)",
        kind: "flags",
        flags: [
          { flag: "allow_private", label: "Private networks" },
          { flag: "allow_loopback", label: "Loopback" },
        ],
        hint: "Link-local and cloud metadata addresses are never reachable",
      },
      {
        key: "monitor_policy",
        label: "Addresses monitors may check",
        kind: "flags",
        flags: [
          { flag: "allow_private", label: "Private networks (monitors)" },
          { flag: "allow_loopback", label: "Services on this host (monitors)" },
        ],
        hint: "Link-local and cloud metadata addresses are never reachable",
      },
    ],
  },
  {
    id: "retention",
    title: "Monitoring and retention",
    fields: [
      { key: "telemetry_hot_days", label: "Full-resolution telemetry kept (days)", kind: "number", min: 1, max: 365 },
      {
        key: "telemetry_warm_days",
        label: "Rolled-up telemetry kept (days)",
        kind: "number",
        min: 2,
        max: 3650,
        hint: "more than the full-resolution days",
      },
      { key: "privacy_analysis_enabled", label: "Privacy and threat analysis of the network", kind: "boolean" },
    ],
  },
  {
    id: "cve",
    title: "CVE feed",
    fields: [
      { key: "cve_enabled", label: "Sync the CVE feed", kind: "boolean" },
      { key: "cve_sync_interval_hours", label: "Sync every (hours)", kind: "number", min: 1, max: 720 },
      {
        key: "cve_feed_sources",
        label: "Feed sources",
        kind: "lines",
        hint: "One a line: an absolute file path or an http(s) URL of NVD CVE API 2.0 JSON; at most 50",
      },
    ],
  },
];
