// A status word with a colour that also carries a shape (dot, ring, square), so it reads without colour.
// The word is the API's value translated (web/src/locales/<language>/status.json; in English the value
// itself); a value the console does not know is shown as it comes, muted.
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

type Tone = "good" | "bad" | "warn" | "muted";

const KNOWN: Record<string, { tone: Tone; label: string }> = {
  up: { tone: "good", label: i18nKey("status:value.up") },
  ok: { tone: "good", label: i18nKey("status:value.ok") },
  running: { tone: "good", label: i18nKey("status:value.running") },
  active: { tone: "good", label: i18nKey("status:value.active") },
  delivered: { tone: "good", label: i18nKey("status:value.delivered") },
  healthy: { tone: "good", label: i18nKey("status:value.healthy") },
  completed: { tone: "good", label: i18nKey("status:value.completed") },
  succeeded: { tone: "good", label: i18nKey("status:value.succeeded") },
  resolved: { tone: "good", label: i18nKey("status:value.resolved") },
  down: { tone: "bad", label: i18nKey("status:value.down") },
  open: { tone: "bad", label: i18nKey("status:value.open") },
  critical: { tone: "bad", label: i18nKey("status:value.critical") },
  firing: { tone: "bad", label: i18nKey("status:value.firing") },
  stopped: { tone: "bad", label: i18nKey("status:value.stopped") },
  failed: { tone: "bad", label: i18nKey("status:value.failed") },
  revoked: { tone: "bad", label: i18nKey("status:value.revoked") },
  rejected: { tone: "bad", label: i18nKey("status:value.rejected") },
  dead: { tone: "bad", label: i18nKey("status:value.dead") },
  rolled_back: { tone: "bad", label: i18nKey("status:value.rolled_back") },
  degraded: { tone: "warn", label: i18nKey("status:value.degraded") },
  acknowledged: { tone: "warn", label: i18nKey("status:value.acknowledged") },
  warning: { tone: "warn", label: i18nKey("status:value.warning") },
  pending: { tone: "warn", label: i18nKey("status:value.pending") },
  started: { tone: "warn", label: i18nKey("status:value.started") },
  upcoming: { tone: "warn", label: i18nKey("status:value.upcoming") },
  maintenance: { tone: "muted", label: i18nKey("status:value.maintenance") },
  paused: { tone: "muted", label: i18nKey("status:value.paused") },
  unknown: { tone: "muted", label: i18nKey("status:value.unknown") },
};

export function Status({ value }: { value: string | null | undefined }) {
  const t = useT();
  const v = value ?? "unknown";
  const known = KNOWN[v];
  return <span class={`status status-${known?.tone ?? "muted"}`}>{known ? t(known.label) : v}</span>;
}
