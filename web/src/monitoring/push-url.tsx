// A push (heartbeat) monitor's push URL (docs/monitors.md, Push monitors): the API answers it once, in
// the create answer and when it is rotated, so the form hands it to the monitor's page in memory
// (revealPushUrl) and the page shows it once, with a copy button and curl lines for a cron job. "Rotate
// push URL" issues a new one and stops the old at once.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { Notice } from "../components/field.tsx";
import { useSubmit } from "../auth/use-submit.ts";

/** URLs answered by a create, waiting for the monitor's page; taken (and forgotten) when it shows them. */
const revealed = new Map<number, string>();

export function revealPushUrl(monitorId: number, url: string): void {
  revealed.set(monitorId, url);
}

function takeRevealed(monitorId: number): string | undefined {
  const url = revealed.get(monitorId);
  revealed.delete(monitorId);
  return url;
}

/** The curl lines a job can run: a GET for the simplest one-liner, and a down report with a message. */
export function curlExamples(url: string): string[] {
  return [`curl -fsS -m 10 --retry 3 '${url}'`, `curl -fsS -m 10 '${url}?status=down&msg=backup%20failed'`];
}

export function PushUrlPanel({ monitorId, canWrite }: { monitorId: number; canWrite: boolean }) {
  const [url, setUrl] = useState<string | undefined>(() => takeRevealed(monitorId));
  const [confirming, setConfirming] = useState(false);
  const rotate = useSubmit();
  const doRotate = () =>
    void rotate.run(async () => {
      const issued = await ok(
        api.POST("/api/v1/monitors/{monitor_id}/push-token", { params: { path: { monitor_id: String(monitorId) } } }),
      );
      setConfirming(false);
      setUrl(issued.push_url);
    });
  return (
    <section class="push-url" aria-labelledby="push-url-title">
      <div class="page-head">
        <h2 id="push-url-title">Push URL</h2>
        {canWrite && !confirming && (
          <button type="button" onClick={() => setConfirming(true)}>
            Rotate push URL
          </button>
        )}
      </div>
      {confirming && (
        <div class="notice notice-info" role="alert">
          <p>A new push URL replaces this monitor's; the old one stops working at once.</p>
          <div class="actions">
            <button type="button" class="danger" disabled={rotate.busy} onClick={doRotate}>
              {rotate.busy ? "Rotating…" : "Rotate"}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <Notice kind="error">{rotate.error}</Notice>
      {url ? (
        <div class="card secret-once" role="status">
          <p>Copy it now: it is shown this once and cannot be read again (rotate it to get a new one).</p>
          <p>
            <code class="secret" data-testid="push-url">
              {url}
            </code>
          </p>
          <div class="actions">
            <button type="button" onClick={() => void navigator.clipboard?.writeText(url)}>
              Copy
            </button>
            <button type="button" onClick={() => setUrl(undefined)}>
              I have copied it
            </button>
          </div>
          <p>From a cron job or script (GET or POST; `status`, `msg`, `ping` in ms and `exit_code` are optional):</p>
          {curlExamples(url).map((line) => (
            <pre key={line}>
              <code data-testid="push-curl">{line}</code>
            </pre>
          ))}
        </div>
      ) : (
        <p class="meta">The push URL is shown only when it is made; rotate it to see a new one.</p>
      )}
    </section>
  );
}
