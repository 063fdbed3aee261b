// The English text shared/domain writes for people, keyed as the console's catalogue keys it
// (docs/web-ui.md, Translations; docs/adr/0502-domain-text-catalogues.md): the notification providers'
// names and field hints and the alert-rule metrics' descriptions. One source of truth: scripts/console-text.ts writes
// web/src/locales/en/<namespace>.json from these entries (its --check, run by
// tests/unit/console-text.test.ts, fails on drift), and the console builds the same keys at run time with
// the functions below. Runtime-neutral and free of the console's i18n module, so Node tests import it.
import { FS_METRIC, findMetric, METRICS } from "./alert-rules/metrics.ts";
import { NOTIFIER_FIELDS, NOTIFIERS } from "./notifications/notifiers/index.ts";
import { TEMPLATE_KEYS } from "./notifications/templates.ts";

/** The catalogue namespaces generated from shared/domain, each checked by its own test instead of by key usage. */
export const DOMAIN_NAMESPACES = ["notifier-fields", "metrics"] as const;
export type DomainNamespace = (typeof DOMAIN_NAMESPACES)[number];

/** The key of a provider field's hint; the message-template keys every provider shares are keyed once. */
export function notifierHintKey(type: string, key: string): string {
  return key in TEMPLATE_KEYS ? `notifier-fields:template.${key}.hint` : `notifier-fields:${type}.${key}.hint`;
}

/** The key of a provider's name in the console (its label, or its type where it has none). */
export function notifierLabelKey(type: string): string {
  return `notifier-fields:${type}.label`;
}

/** A provider's name as the domain writes it: its label, or its type. */
export const notifierName = (type: string): string =>
  (NOTIFIERS.find((p) => p.type === type) as { label?: string } | undefined)?.label ?? type;

/** The key of a metric's description; every `host.fs_pct{<mount>}` shares one, with `{{mount}}`. */
export function metricKey(name: string): string {
  return `metrics:${findMetric(name)?.mount !== undefined ? FS_METRIC : name}.description`;
}

// A mount no real one equals, replaced by the catalogue's variable.
const MOUNT_MARK = "/\u0001mount";

/** Every entry, as {namespace: {key without namespace: English}}, sorted by key. */
export function consoleTextEntries(): Record<DomainNamespace, Record<string, string>> {
  const out: Record<DomainNamespace, Record<string, string>> = { "notifier-fields": {}, metrics: {} };
  const put = (full: string, text: string | undefined) => {
    if (!text) return;
    const [ns, key] = [full.slice(0, full.indexOf(":")), full.slice(full.indexOf(":") + 1)] as [DomainNamespace, string];
    out[ns][key] = text;
  };
  for (const p of NOTIFIERS) put(notifierLabelKey(p.type), notifierName(p.type));
  // Every provider's fields, the template keys among them (which land on their one shared key).
  for (const [type, fields] of Object.entries(NOTIFIER_FIELDS))
    for (const [key, f] of Object.entries(fields)) put(notifierHintKey(type, key), f.hint);
  for (const m of METRICS) put(metricKey(m.name), m.description);
  const fs = findMetric(`${FS_METRIC}{${MOUNT_MARK}}`)!;
  put(metricKey(fs.name), fs.description.replaceAll(MOUNT_MARK, "{{mount}}"));
  for (const ns of DOMAIN_NAMESPACES)
    out[ns] = Object.fromEntries(Object.entries(out[ns]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return out;
}
