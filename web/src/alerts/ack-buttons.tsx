// Acknowledge / Un-acknowledge of one incident (docs/adr/0447-acknowledgement.md), for a role with
// write:alerts: the list's rows and the alert's page use the same two buttons and show the API's refusal.
import { api, ok } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { useT } from "../i18n/use-t.ts";

interface Incident {
  id: number;
  state: string;
  title: string;
}

export function AckButtons({ alert, onDone }: { alert: Incident; onDone: () => void }) {
  const t = useT();
  const canAck = useSession().can("write:alerts");
  const submit = useSubmit();
  if (!canAck || (alert.state !== "open" && alert.state !== "acknowledged")) return null;
  const path = { alert_id: String(alert.id) };
  const run = (ack: boolean) =>
    submit.run(async () => {
      if (ack) await ok(api.POST("/api/v1/alerts/{alert_id}/acknowledge", { params: { path }, body: {} }));
      else await ok(api.DELETE("/api/v1/alerts/{alert_id}/acknowledge", { params: { path } }));
      onDone();
    });
  return (
    <span class="actions">
      {alert.state === "open" ? (
        <button
          type="button"
          disabled={submit.busy}
          aria-label={t("alerts:ack.label", { title: alert.title })}
          onClick={() => void run(true)}
        >
          {t("alerts:ack.button")}
        </button>
      ) : (
        <button
          type="button"
          disabled={submit.busy}
          aria-label={t("alerts:unack.label", { title: alert.title })}
          onClick={() => void run(false)}
        >
          {t("alerts:unack.button")}
        </button>
      )}
      {submit.error && (
        <span class="error" role="alert">
          {submit.error}
        </span>
      )}
    </span>
  );
}
