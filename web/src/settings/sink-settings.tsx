// A sink's settings as its row in the list shows them: each key of its provider by a readable name
// ("URL", "Signing secret"), a secret as set or not set (never its masked value or the API's `<key>_set`
// flag), a template as present.
import { NOTIFIER_FIELDS, type NotifierType } from "../../../shared/domain/notifications/notifiers/index.ts";
import { TEMPLATE_KEYS } from "../../../shared/domain/notifications/templates.ts";
import type { Sink } from "./sink-form.tsx";
import { t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

/** Words written in capitals wherever they appear in a key. */
const ACRONYMS = new Set(["url", "api", "tls", "smtp", "http", "id", "sid", "iden"]);

/** "base_url" -> "Base URL", "smtp_verify_tls" -> "SMTP verify TLS": the provider's own key names, read as words. */
export function settingLabel(key: string): string {
  // Its words alone do not say what it is.
  if (key === "secret") return t("settings:sinkSettings.signingSecret");
  const words = key.split("_").map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w));
  const first = words[0] ?? "";
  return [first.charAt(0).toUpperCase() + first.slice(1), ...words.slice(1)].join(" ");
}

export function SinkSettings({ sink }: { sink: Sink }) {
  useT();
  const fields = NOTIFIER_FIELDS[sink.provider_type as NotifierType] ?? {};
  const config = sink.provider_config;
  const parts: string[] = [];
  for (const [key, field] of Object.entries(fields)) {
    const value = config[key];
    // A template is a paragraph, not a setting to read in a row: the row says the sink has one.
    if (key in TEMPLATE_KEYS) {
      if (value != null && value !== "") parts.push(t("settings:sinkSettings.templated", { name: key.replace("_template", "") }));
    } else if (field.secret)
      parts.push(
        config[`${key}_set`] === true
          ? t("settings:sinkSettings.set", { label: settingLabel(key) })
          : t("settings:sinkSettings.notSet", { label: settingLabel(key) }),
      );
    else if (value != null && value !== "") parts.push(`${settingLabel(key)}: ${String(value)}`);
  }
  return <>{parts.join(", ") || "—"}</>;
}
