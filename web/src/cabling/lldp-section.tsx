// A hardware node's LLDP neighbours (docs/ports-and-cables.md), beside its Interfaces: "Read LLDP
// neighbours" queues an enrichment of this node (POST /discovery/lldp-enrich, the community and port
// as the API takes them), its job is followed (GET /discovery/jobs/{id}, read again every few seconds
// while queued or running) and its neighbours listed as cable proposals (GET .../cable-proposals): the
// local interface, the remote node and interface, the state in words with the API's reason. A ready
// one gets "Create cable" (POST .../accept) for who may write hardware; the node's port lists are then
// read again (onCabled). The job shown is kept in the address (?lldp_job=), so a reload keeps it.
import { useEffect, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { navigate, useLocation } from "../router.tsx";
import { useLoad } from "../use-load.ts";

const STATE_LABEL = {
  ready: i18nKey("lldp:state.ready"),
  cabled: i18nKey("lldp:state.cabled"),
  taken: i18nKey("lldp:state.taken"),
  unmatched: i18nKey("lldp:state.unmatched"),
} as const;
const OPEN = new Set(["queued", "running"]);
const POLL_MS = 3000;

export function LldpSection({ hardwareId, onCabled }: { hardwareId: string; onCabled(): void }) {
  const t = useT();
  const session = useSession();
  const loc = useLocation();
  const canRead = session.can("read:discovery");
  const canStart = session.can("write:discovery");
  const canAccept = session.can("write:hardware");
  const asked = Number(loc.query.get("lldp_job"));
  const jobId = Number.isInteger(asked) && asked > 0 ? asked : undefined;
  const [form, setForm] = useState({ community: "", port: "161" });
  const start = useSubmit();
  const accept = useSubmit();
  const job = useLoad(
    async () =>
      jobId === undefined ? undefined : ok(api.GET("/api/v1/discovery/jobs/{job_id}", { params: { path: { job_id: String(jobId) } } })),
    [jobId],
    { wait: !canRead },
  );
  const status = job.data?.status;
  const proposals = useLoad(
    async () =>
      jobId === undefined
        ? undefined
        : ok(api.GET("/api/v1/discovery/lldp-jobs/{job_id}/cable-proposals", { params: { path: { job_id: String(jobId) } } })),
    [jobId, status],
    { wait: !canRead },
  );
  // Follow an open job until it ends; its status changing reads the proposals again.
  useEffect(() => {
    if (!status || !OPEN.has(status)) return;
    const timer = setInterval(job.reload, POLL_MS);
    return () => clearInterval(timer);
  }, [status]);

  if (!canRead) return null;
  const show = (id: number) => {
    const q = new URLSearchParams(loc.query);
    q.set("lldp_job", String(id));
    navigate(`${loc.path}?${q}`, { replace: true });
  };
  const read = (e: Event) => {
    e.preventDefault();
    void start.run(async () => {
      const out = await ok(
        api.POST("/api/v1/discovery/lldp-enrich", {
          body: {
            hardware_ids: [Number(hardwareId)],
            ...(form.community ? { snmp_community: form.community } : {}),
            ...(form.port ? { snmp_port: Number(form.port) } : {}),
          },
        }),
      );
      show(out.job_id);
    });
  };
  const create = (neighborId: number) =>
    accept.run(async () => {
      await ok(
        api.POST("/api/v1/discovery/lldp-jobs/{job_id}/cable-proposals/{neighbor_id}/accept", {
          params: { path: { job_id: String(jobId), neighbor_id: String(neighborId) } },
        }),
      );
      proposals.reload();
      onCabled();
    });
  const items = proposals.data?.proposals ?? [];
  return (
    <section class="ports lldp" aria-labelledby="lldp-title">
      <h3 id="lldp-title">{t("lldp:title")}</h3>
      {canStart && (
        <form class="port-form" onSubmit={read} noValidate aria-label={t("lldp:read")}>
          <TextInput
            id="lldp-community"
            label={t("lldp:community")}
            hint={t("lldp:communityHint")}
            value={form.community}
            error={start.fields.snmp_community}
            onValue={(v) => setForm({ ...form, community: v })}
          />
          <TextInput
            id="lldp-port"
            label={t("lldp:port")}
            value={form.port}
            error={start.fields.snmp_port}
            onValue={(v) => setForm({ ...form, port: v })}
          />
          <Notice kind="error">{start.errorBesides(["snmp_community", "snmp_port"])}</Notice>
          <button type="submit" class="primary" disabled={start.busy}>
            {t("lldp:read")}
          </button>
        </form>
      )}
      {jobId === undefined && <p class="empty">{t("lldp:noJob")}</p>}
      {job.error !== undefined && <Notice kind="error">{messageOf(job.error)}</Notice>}
      {job.data && (
        <p class="meta" data-testid="lldp-job">
          {t("lldp:job", { id: job.data.id })} <Status value={job.data.status} />
          {job.data.progress_message ? ` — ${job.data.progress_message}` : ""}
          {job.data.error_text ? ` — ${job.data.error_text}` : ""}
        </p>
      )}
      {proposals.error !== undefined && <Notice kind="error">{messageOf(proposals.error)}</Notice>}
      <Notice kind="error">{accept.error}</Notice>
      {proposals.data && items.length === 0 && <p class="empty">{status && OPEN.has(status) ? t("lldp:waiting") : t("lldp:none")}</p>}
      {items.length > 0 && (
        <table aria-label={t("lldp:proposals")}>
          <thead>
            <tr>
              <th>{t("lldp:local")}</th>
              <th>{t("lldp:remote")}</th>
              <th>{t("lldp:stateColumn")}</th>
              <th>
                <span class="visually-hidden">{t("lldp:actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((p) => {
              const local = p.local?.name ?? p.local_port_desc ?? "—";
              const remote = p.remote
                ? `${p.remote.hardware_name}:${p.remote.name}`
                : `${p.remote_sys_name ?? "?"}:${p.remote_port_desc ?? "?"}`;
              return (
                <tr key={p.neighbor_id}>
                  <td>{local}</td>
                  <td>{remote}</td>
                  <td>
                    <strong>{t(STATE_LABEL[p.state])}</strong>
                    {p.state === "cabled" && p.cable_id != null && ` — ${t("lldp:cabledBy", { id: p.cable_id })}`}
                    {p.reason && <span class="meta"> — {p.reason}</span>}
                  </td>
                  <td class="actions">
                    {canAccept && p.state === "ready" && (
                      <button
                        type="button"
                        class="link"
                        disabled={accept.busy}
                        onClick={() => void create(p.neighbor_id)}
                        aria-label={t("lldp:createOf", { local, remote })}
                      >
                        {t("lldp:create")}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
