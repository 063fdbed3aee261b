// A status word with a colour that also carries a shape (dot, ring, square), so it reads without colour.
const TONE: Record<string, string> = {
  up: "good",
  ok: "good",
  running: "good",
  active: "good",
  delivered: "good",
  healthy: "good",
  completed: "good",
  succeeded: "good",
  resolved: "good",
  down: "bad",
  open: "bad",
  critical: "bad",
  firing: "bad",
  stopped: "bad",
  failed: "bad",
  revoked: "bad",
  rejected: "bad",
  dead: "bad",
  rolled_back: "bad",
  degraded: "warn",
  acknowledged: "warn",
  warning: "warn",
  pending: "warn",
  started: "warn",
  upcoming: "warn",
  maintenance: "muted",
  paused: "muted",
  unknown: "muted",
};

export function Status({ value }: { value: string | null | undefined }) {
  const v = value ?? "unknown";
  return <span class={`status status-${TONE[v] ?? "muted"}`}>{v}</span>;
}
