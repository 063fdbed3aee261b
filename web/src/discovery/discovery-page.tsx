// Discovery: start a scan (addresses, ranges or CIDRs; the probes to run), watch its progress live from
// /discovery/stream, cancel an open one, read its log, and review what it found: merge a result into the
// inventory or reject it, one by one or the selected ones together, and undo a review (through the
// merge's audit entry, which a bulk review shares among its results). The passive listener's status and
// what it heard follow the scans (listener-panel.tsx).
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { LiveBadge, useStream } from "../live.tsx";
import { Link, useLocation } from "../router.tsx";
import { t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { DiscoveryTabs } from "./discovery-tabs.tsx";
import { JobLogs } from "./job-logs.tsx";
import { ListenerPanel } from "./listener-panel.tsx";

const PROBES = ["icmp", "tcp", "dns", "banner"] as const;
/** A port with the service a listener or a probe named: "631 (ipp)". */
const portText = (p: { port: number; service?: unknown }) =>
  typeof p.service === "string" && p.service ? `${p.port} (${p.service})` : String(p.port);
const list = (s: string) =>
  s
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);

export function DiscoveryPage() {
  useT();
  const session = useSession();
  const canScan = session.can("write:discovery");
  const canCancel = session.can("delete:discovery");
  const [form, setForm] = useState({ targets: "", ports: "22, 80, 443", label: "" });
  const [probes, setProbes] = useState<Set<string>>(new Set(["icmp", "tcp"]));
  // ?job= opens that scan (the profiles screen links a run it started); otherwise the newest.
  const asked = Number(useLocation().query.get("job"));
  const [jobId, setJobId] = useState<number | undefined>(Number.isInteger(asked) && asked > 0 ? asked : undefined);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const start = useSubmit();
  const review = useSubmit();
  const cancel = useSubmit();
  const [reviewed, setReviewed] = useState<string | undefined>();
  const [tick, setTick] = useState(0);
  const jobs = useLoad(
    () => ok(api.GET("/api/v1/discovery/jobs", { params: { query: { limit: "10", sort: "created_at", direction: "desc" } } })),
    [],
  );
  const current = jobId ?? jobs.data?.items[0]?.id;
  const results = useLoad(
    async () =>
      current === undefined
        ? undefined
        : ok(
            api.GET("/api/v1/discovery/jobs/{job_id}/results", {
              params: { path: { job_id: String(current) }, query: { limit: "100", sort: "ip_address" } },
            }),
          ),
    [current],
  );
  // A review's outcome belongs to the scan it was made on.
  useEffect(() => setReviewed(undefined), [current]);
  const soon = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const readAgain = () => {
    jobs.reload();
    results.reload();
    setTick((n) => n + 1);
  };
  const live = useStream(
    "/api/v1/discovery/stream",
    () => {
      clearTimeout(soon.current);
      soon.current = setTimeout(readAgain, 300);
    },
    readAgain,
  );

  const scan = (e: Event) => {
    e.preventDefault();
    void start.run(async () => {
      const ports = list(form.ports).map(Number);
      const job = await ok(
        api.POST("/api/v1/discovery/scan", {
          body: {
            targets: list(form.targets),
            scan_types: [...probes],
            ...(probes.has("tcp") || probes.has("banner") ? { tcp_ports: ports } : {}),
            ...(form.label ? { label: form.label } : {}),
          },
        }),
      );
      // Several CIDRs may start one job each: show the first.
      setJobId((Array.isArray(job) ? job[0] : job)?.id);
      jobs.reload();
    });
  };
  const decide = (action: "accept" | "reject", ids: number[]) =>
    review.run(async () => {
      setReviewed(undefined);
      if (ids.length === 1)
        await ok(
          api.POST("/api/v1/discovery/results/{result_id}/merge", { params: { path: { result_id: String(ids[0]) } }, body: { action } }),
        );
      else {
        const out = await ok(api.POST("/api/v1/discovery/results/bulk-merge", { body: { action, result_ids: ids } }));
        const counts = { accepted: out.accepted, rejected: out.rejected, skipped: out.skipped };
        setReviewed(out.skipped ? t("discovery:review.doneSkipped", counts) : t("discovery:review.done", counts));
      }
      setSelected(new Set());
      results.reload();
    });
  const undo = (auditId: number, ip: string) => {
    const shared = (results.data?.items ?? []).filter((r) => r.merge_audit_id === auditId).length;
    const question = shared > 1 ? t("discovery:undo.confirmShared", { ip, count: shared - 1 }) : t("discovery:undo.confirm", { ip });
    if (!confirm(question)) return;
    void review.run(async () => {
      const out = await ok(api.POST("/api/v1/discovery/merges/{audit_id}/undo", { params: { path: { audit_id: String(auditId) } } }));
      setReviewed(t("discovery:undo.done", { reset: out.results_reset, deleted: out.rows_deleted, restored: out.rows_restored }));
      results.reload();
    });
  };
  const stop = (id: number) =>
    confirm(t("discovery:scan.confirmCancel", { id })) &&
    cancel.run(async () => {
      await ok(api.DELETE("/api/v1/discovery/jobs/{job_id}", { params: { path: { job_id: String(id) } } }));
      jobs.reload();
    });
  const toggle = (id: number) => setSelected((s) => (s.has(id) ? new Set([...s].filter((x) => x !== id)) : new Set([...s, id])));
  const job = jobs.data?.items.find((j) => j.id === current);
  const pending = (results.data?.items ?? []).filter((r) => r.merge_status === "pending");

  return (
    <section aria-labelledby="discovery-title">
      <header class="page-head">
        <h1 id="discovery-title">{t("discovery:title")}</h1>
        <LiveBadge state={live} />
      </header>
      <DiscoveryTabs current="/discovery" />
      {canScan && (
        <form class="card" onSubmit={scan} aria-labelledby="scan-title" noValidate>
          <h2 id="scan-title">{t("discovery:scan.start")}</h2>
          <TextInput
            id="scan-targets"
            label={t("discovery:scan.targets")}
            placeholder="192.168.1.0/24, 10.0.0.5-10.0.0.20"
            hint={t("discovery:scan.targetsHint")}
            value={form.targets}
            error={start.fields.targets}
            onValue={(v) => setForm({ ...form, targets: v })}
          />
          <fieldset class="probes">
            <legend>{t("discovery:scan.probes")}</legend>
            {PROBES.map((p) => (
              <label key={p} class="check">
                <input
                  type="checkbox"
                  checked={probes.has(p)}
                  onChange={() => setProbes((s) => (s.has(p) ? new Set([...s].filter((x) => x !== p)) : new Set([...s, p])))}
                />{" "}
                {p}
              </label>
            ))}
          </fieldset>
          <TextInput
            id="scan-ports"
            label={t("discovery:scan.ports")}
            value={form.ports}
            error={start.fields.tcp_ports}
            onValue={(v) => setForm({ ...form, ports: v })}
          />
          <TextInput id="scan-label" label={t("discovery:scan.label")} value={form.label} onValue={(v) => setForm({ ...form, label: v })} />
          <Notice kind="error">{start.error}</Notice>
          <button type="submit" class="primary" disabled={start.busy || probes.size === 0}>
            {t("discovery:scan.submit")}
          </button>
        </form>
      )}
      <h2>{t("discovery:scan.recent")}</h2>
      {jobs.error !== undefined && <Notice kind="error">{messageOf(jobs.error)}</Notice>}
      <Notice kind="error">{cancel.error}</Notice>
      <ul class="cards">
        {jobs.data?.items.map((j) => (
          <li key={j.id} class={`card${j.id === current ? " selected" : ""}`}>
            <button type="button" class="link" aria-pressed={j.id === current} onClick={() => setJobId(j.id)}>
              {t("discovery:scan.name", { id: j.id })}
              {j.label ? ` (${j.label})` : ""}: {j.targets.join(", ") || j.target_cidr}
            </button>{" "}
            <Status value={j.status} />
            <progress
              max={Math.max(1, j.addresses_total)}
              value={j.addresses_done}
              aria-label={t("discovery:scan.progress", { id: j.id })}
            />
            <span class="meta">
              {t("discovery:scan.counts", { done: j.addresses_done, total: j.addresses_total, found: j.hosts_found })}
              {j.progress_message ? ` — ${j.progress_message}` : ""}
              {j.error_text ? ` — ${j.error_text}` : ""}
            </span>
            {canCancel && (j.status === "queued" || j.status === "running") && (
              <button type="button" class="danger" disabled={cancel.busy} onClick={() => void stop(j.id)}>
                {t("discovery:scan.cancel", { id: j.id })}
              </button>
            )}
          </li>
        ))}
      </ul>
      {job && (
        <>
          <h2>{t("discovery:results.title", { id: job.id })}</h2>
          <Notice kind="error">{review.error}</Notice>
          <Notice kind="success">{reviewed}</Notice>
          {canScan && pending.length > 0 && (
            <div class="actions">
              <button type="button" disabled={selected.size === 0 || review.busy} onClick={() => void decide("accept", [...selected])}>
                {t("discovery:results.mergeSelected", { count: selected.size })}
              </button>
              <button type="button" disabled={selected.size === 0 || review.busy} onClick={() => void decide("reject", [...selected])}>
                {t("discovery:results.rejectSelected")}
              </button>
            </div>
          )}
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">{t("discovery:results.title", { id: job.id })}</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <span class="visually-hidden">{t("discovery:col.select")}</span>
                  </th>
                  <th scope="col">{t("discovery:col.address")}</th>
                  <th scope="col">{t("discovery:col.hostname")}</th>
                  <th scope="col">{t("discovery:col.openPorts")}</th>
                  <th scope="col">{t("discovery:col.device")}</th>
                  <th scope="col">{t("discovery:col.match")}</th>
                  <th scope="col">{t("discovery:col.review")}</th>
                </tr>
              </thead>
              <tbody>
                {results.data?.items.map((r) => (
                  <tr key={r.id}>
                    <td data-label={t("discovery:col.select")}>
                      {r.merge_status === "pending" && canScan && (
                        <input
                          type="checkbox"
                          aria-label={t("discovery:results.select", { ip: r.ip_address })}
                          checked={selected.has(r.id)}
                          onChange={() => toggle(r.id)}
                        />
                      )}
                    </td>
                    <td data-label={t("discovery:col.address")}>{r.ip_address}</td>
                    <td data-label={t("discovery:col.hostname")}>{r.hostname ?? "—"}</td>
                    <td data-label={t("discovery:col.openPorts")}>{r.open_ports.map((p) => portText(p)).join(", ") || "—"}</td>
                    <td data-label={t("discovery:col.device")}>
                      {[r.vendor, r.model, r.serial_number ? t("discovery:serial", { serial: r.serial_number }) : null]
                        .filter(Boolean)
                        .join(" ") || "—"}
                    </td>
                    <td data-label={t("discovery:col.match")}>
                      {r.matched_entity_type === "hardware" && r.matched_entity_id ? (
                        <Link href={`/inventory/hardware/${r.matched_entity_id}`}>
                          {t("discovery:results.hardware", { id: r.matched_entity_id })}
                        </Link>
                      ) : (
                        r.state
                      )}
                    </td>
                    <td data-label={t("discovery:col.review")}>
                      {r.merge_status === "pending" && canScan ? (
                        <span class="actions">
                          <button type="button" disabled={review.busy} onClick={() => void decide("accept", [r.id])}>
                            {t("discovery:results.merge")}
                          </button>
                          <button type="button" disabled={review.busy} onClick={() => void decide("reject", [r.id])}>
                            {t("discovery:results.reject")}
                          </button>
                        </span>
                      ) : (
                        <span class="actions">
                          <Status value={r.merge_status} />
                          {canScan && r.merge_status !== "pending" && r.merge_audit_id !== null && (
                            <button type="button" disabled={review.busy} onClick={() => undo(r.merge_audit_id!, r.ip_address)}>
                              {r.merge_status === "rejected" ? t("discovery:results.undoReject") : t("discovery:results.undoMerge")}
                            </button>
                          )}
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {results.data?.items.length === 0 && <p class="empty">{t("discovery:results.none")}</p>}
          </div>
          <JobLogs jobId={job.id} refresh={tick} />
        </>
      )}
      <ListenerPanel refresh={tick} />
    </section>
  );
}
