// The plain application settings (PUT /settings) as form fields, grouped by area. Keys and enum values are
// typed against the API's body, so a renamed key or value fails `npm run build:web`. The bounds are the
// inputs' hints only: the server's rules (shared/verbs/settings/rules.ts) decide, and their 422 is shown
// on the field. Titles, labels and hints are catalogue keys (settings namespace), translated where shown.
// The rate-limit profile is changed in "Vault and rate limits"; SMTP has its own section.
import type { paths } from "../api/client.ts";
import { i18nKey } from "../i18n/i18n.ts";

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
    title: i18nKey("settings:general.group.general"),
    fields: [
      {
        key: "public_url",
        label: i18nKey("settings:general.publicUrl"),
        kind: "text",
        placeholder: "https://ops.example.com",
        hint: i18nKey("settings:general.publicUrl.hint"),
      },
      { key: "onboarding_dismissed", label: i18nKey("settings:general.onboarding"), kind: "boolean" },
    ],
  },
  {
    id: "security",
    title: i18nKey("settings:general.group.security"),
    fields: [
      { key: "session_timeout_hours", label: i18nKey("settings:general.sessionHours"), kind: "number", min: 1, max: 720 },
      { key: "lockout_threshold", label: i18nKey("settings:general.lockoutThreshold"), kind: "number", min: 1, max: 100 },
      { key: "lockout_minutes", label: i18nKey("settings:general.lockoutMinutes"), kind: "number", min: 1, max: 1440 },
      { key: "invite_expiry_hours", label: i18nKey("settings:general.inviteHours"), kind: "number", min: 1, max: 720 },
      { key: "masquerade_minutes", label: i18nKey("settings:general.masqueradeMinutes"), kind: "number", min: 1, max: 1440 },
      { key: "allow_registration", label: i18nKey("settings:general.allowRegistration"), kind: "boolean" },
      {
        key: "registration_default_role",
        label: i18nKey("settings:general.registrationRole"),
        kind: "enum",
        options: roles,
        hint: i18nKey("settings:general.registrationRole.hint"),
      },
      { key: "demo_enabled", label: i18nKey("settings:general.demo"), kind: "boolean" },
    ],
  },
  {
    id: "outbound",
    title: i18nKey("settings:general.group.outbound"),
    fields: [
      {
        key: "outbound_policy",
        label: i18nKey("settings:general.outboundPolicy"),
        kind: "flags",
        flags: [
          { flag: "allow_private", label: i18nKey("settings:general.private") },
          { flag: "allow_loopback", label: i18nKey("settings:general.loopback") },
        ],
        hint: i18nKey("settings:general.neverReachable"),
      },
      {
        key: "monitor_policy",
        label: i18nKey("settings:general.monitorPolicy"),
        kind: "flags",
        flags: [
          { flag: "allow_private", label: i18nKey("settings:general.monitorPrivate") },
          { flag: "allow_loopback", label: i18nKey("settings:general.monitorLoopback") },
        ],
        hint: i18nKey("settings:general.neverReachable"),
      },
    ],
  },
  {
    id: "retention",
    title: i18nKey("settings:general.group.retention"),
    fields: [
      { key: "telemetry_hot_days", label: i18nKey("settings:general.hotDays"), kind: "number", min: 1, max: 365 },
      {
        key: "telemetry_warm_days",
        label: i18nKey("settings:general.warmDays"),
        kind: "number",
        min: 2,
        max: 3650,
        hint: i18nKey("settings:general.warmDays.hint"),
      },
      { key: "privacy_analysis_enabled", label: i18nKey("settings:general.privacy"), kind: "boolean" },
    ],
  },
  {
    id: "cve",
    title: i18nKey("settings:general.group.cve"),
    fields: [
      { key: "cve_enabled", label: i18nKey("settings:general.cveEnabled"), kind: "boolean" },
      { key: "cve_sync_interval_hours", label: i18nKey("settings:general.cveInterval"), kind: "number", min: 1, max: 720 },
      {
        key: "cve_feed_sources",
        label: i18nKey("settings:general.cveSources"),
        kind: "lines",
        hint: i18nKey("settings:general.cveSources.hint"),
      },
    ],
  },
];
