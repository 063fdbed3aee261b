// A push (heartbeat) monitor's push URL (docs/monitors.md, Push monitors): the API answers it once, in
// the create answer and when it is rotated, so the form hands it to the monitor's page in memory
// (revealPushUrl) and the page shows it once, with a copy button and curl lines for a cron job. "Rotate
// push URL" issues a new one and stops the old at once.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { Notice } from "../components/field.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { useT } from "../i18n/use-t.ts";

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
  const t = useT();
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
        <h2 id="push-url-title">{t("monitoring:push.title")}</h2>
        {canWrite && !confirming && (
          <button type="button" onClick={() => setConfirming(true)}>
            {t("monitoring:push.rotateButton")}
          </button>
        )}
      </div>
      {confirming && (
        <div class="notice notice-info" role="alert">
          <p>{t("monitoring:push.confirm")}</p>
          <div class="actions">
            <button type="button" class="danger" disabled={rotate.busy} onClick={doRotate}>
              {rotate.busy ? t("monitoring:push.rotating") : t("monitoring:push.rotate")}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {t("common:cancel")}
            </button>
          </div>
        </div>
      )}
      <Notice kind="error">{rotate.error}</Notice>
      {url ? (
        <div class="card secret-once" role="status">
          <p>{t("monitoring:push.once")}</p>
          <p>
            <code class="secret" data-testid="push-url">
              {url}
            </code>
          </p>
          <div class="actions">
            <button type="button" onClick={() => void navigator.clipboard?.writeText(url)}>
              {t("common:copy.button")}
            </button>
            <button type="button" onClick={() => setUrl(undefined)}>
              {t("monitoring:push.copied")}
            </button>
          </div>
          <p>{t("monitoring:push.cron")}</p>
          {curlExamples(url).map((line) => (
            <pre key={line}>
              <code data-testid="push-curl">{line}</code>
            </pre>
          ))}
        </div>
      ) : (
        <p class="meta">{t("monitoring:push.hidden")}</p>
      )}
    </section>
  );
}
