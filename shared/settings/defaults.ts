// Every application setting with its default. Stored values live in app_settings (one JSON per key);
// a key never written answers its default here.
import { DEFAULT_MONITOR_POLICY, DEFAULT_OUTBOUND_POLICY } from "../domain/net/outbound-policy.ts";

export const SETTING_DEFAULTS = {
  rate_limit_profile: "normal",
  session_timeout_hours: 24,
  lockout_threshold: 5,
  lockout_minutes: 15,
  allow_registration: false,
  registration_default_role: "viewer",
  demo_enabled: false,
  telemetry_hot_days: 7,
  telemetry_warm_days: 30,
  masquerade_minutes: 30,
  invite_expiry_hours: 72,
  /** The address operators reach this deployment at (set in first run by POST /bootstrap/domain). */
  public_url: "",
  onboarding_dismissed: false,
  /** The SSRF policy of operator-configured URLs (integrations, notification sinks); an administrator relaxes it for a lab. */
  outbound_policy: DEFAULT_OUTBOUND_POLICY,
  /** What monitors' checks may reach (private and loopback by default; link-local and metadata never): ADR 0331. */
  monitor_policy: DEFAULT_MONITOR_POLICY,
  /** The privacy and threat analysis of the network (docs/privacy.md); off: its reads answer empty shapes and no snapshots are taken. */
  privacy_analysis_enabled: true,
  /** The CVE feed (docs/cve.md): whether the daily sync runs, and what it reads (file paths or http(s) URLs of NVD CVE API 2.0 JSON, gzip or not). */
  cve_enabled: true,
  cve_feed_sources: [] as readonly string[],
  cve_sync_interval_hours: 24,
  /** The passive mDNS/SSDP listener (docs/discovery-listener.md): off by default; on, it listens on these interface names (eth0, br-lan). */
  discovery_listener_enabled: false,
  discovery_listener_interfaces: [] as readonly string[],
} as const;

export type SettingKey = keyof typeof SETTING_DEFAULTS;
export type SettingValue<K extends SettingKey> = (typeof SETTING_DEFAULTS)[K] extends number
  ? number
  : (typeof SETTING_DEFAULTS)[K] extends boolean
    ? boolean
    : (typeof SETTING_DEFAULTS)[K] extends string
      ? string
      : (typeof SETTING_DEFAULTS)[K];
