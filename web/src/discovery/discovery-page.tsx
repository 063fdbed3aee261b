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
    setTick((t) => t + 1);
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
        setReviewed(
          `${out.accepted} merged, ${out.rejected} rejected, ${out.skipped} skipped${out.skipped ? " (conflicts and results reviewed meanwhile are left for one-by-one review)" : ""}.`,
        );
      }
      setSelected(new Set());
      results.reload();
    });
  const undo = (auditId: number, ip: string) => {
    const shared = (results.data?.items ?? []).filter((r) => r.merge_audit_id === auditId).length;
    const what = shared > 1 ? `the review of ${ip} and the ${shared - 1} other results reviewed with it` : `the review of ${ip}`;
    if (!confirm(`Undo ${what}? Nodes it created are deleted and nodes it changed get their previous values back.`)) return;
    void review.run(async () => {
      const out = await ok(api.POST("/api/v1/discovery/merges/{audit_id}/undo", { params: { path: { audit_id: String(auditId) } } }));
      setReviewed(
        `Undone: ${out.results_reset} results back to pending, ${out.rows_deleted} records deleted, ${out.rows_restored} restored.`,
      );
      results.reload();
    });
  };
  const stop = (id: number) =>
    confirm(`Cancel scan ${id}? What it found so far stays.`) &&
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
        <h1 id="discovery-title">Discovery</h1>
        <LiveBadge state={live} />
      </header>
      <DiscoveryTabs current="/discovery" />
      {canScan && (
        <form class="card" onSubmit={scan} aria-labelledby="scan-title" noValidate>
          <h2 id="scan-title">Start a scan</h2>
          <TextInput
            id="scan-targets"
            label="Targets"
            placeholder="192.168.1.0/24, 10.0.0.5-10.0.0.20"
            hint="Addresses, ranges or CIDRs, separated by commas"
            value={form.targets}
            error={start.fields.targets}
            onValue={(v) => setForm({ ...form, targets: v })}
          />
          <fieldset class="probes">
            <legend>Probes</legend>
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
            label="TCP ports"
            value={form.ports}
            error={start.fields.tcp_ports}
            onValue={(v) => setForm({ ...form, ports: v })}
          />
          <TextInput id="scan-label" label="Label (optional)" value={form.label} onValue={(v) => setForm({ ...form, label: v })} />
          <Notice kind="error">{start.error}</Notice>
          <button type="submit" class="primary" disabled={start.busy || probes.size === 0}>
            Start scan
          </button>
        </form>
      )}
      <h2>Recent scans</h2>
      {jobs.error !== undefined && <Notice kind="error">{messageOf(jobs.error)}</Notice>}
      <Notice kind="error">{cancel.error}</Notice>
      <ul class="cards">
        {jobs.data?.items.map((j) => (
          <li key={j.id} class={`card${j.id === current ? " selected" : ""}`}>
            <button type="button" class="link" aria-pressed={j.id === current} onClick={() => setJobId(j.id)}>
              Scan {j.id}
              {j.label ? ` (${j.label})` : ""}: {j.targets.join(", ") || j.target_cidr}
            </button>{" "}
            <Status value={j.status} />
            <progress max={Math.max(1, j.addresses_total)} value={j.addresses_done} aria-label={`Progress of scan ${j.id}`} />
            <span class="meta">
              {j.addresses_done} of {j.addresses_total} addresses, {j.hosts_found} found
              {j.progress_message ? ` — ${j.progress_message}` : ""}
              {j.error_text ? ` — ${j.error_text}` : ""}
            </span>
            {canCancel && (j.status === "queued" || j.status === "running") && (
              <button type="button" class="danger" disabled={cancel.busy} onClick={() => void stop(j.id)}>
                Cancel scan {j.id}
              </button>
            )}
          </li>
        ))}
      </ul>
      {job && (
        <>
          <h2>Results of scan {job.id}</h2>
          <Notice kind="error">{review.error}</Notice>
          <Notice kind="success">{reviewed}</Notice>
          {canScan && pending.length > 0 && (
            <div class="actions">
              <button type="button" disabled={selected.size === 0 || review.busy} onClick={() => void decide("accept", [...selected])}>
                Merge selected ({selected.size})
              </button>
              <button type="button" disabled={selected.size === 0 || review.busy} onClick={() => void decide("reject", [...selected])}>
                Reject selected
              </button>
            </div>
          )}
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Results of scan {job.id}</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <span class="visually-hidden">Select</span>
                  </th>
                  <th scope="col">Address</th>
                  <th scope="col">Host name</th>
                  <th scope="col">Open ports</th>
                  <th scope="col">Device</th>
                  <th scope="col">Match</th>
                  <th scope="col">Review</th>
                </tr>
              </thead>
              <tbody>
                {results.data?.items.map((r) => (
                  <tr key={r.id}>
                    <td data-label="Select">
                      {r.merge_status === "pending" && canScan && (
                        <input
                          type="checkbox"
                          aria-label={`Select ${r.ip_address}`}
                          checked={selected.has(r.id)}
                          onChange={() => toggle(r.id)}
                        />
                      )}
                    </td>
                    <td data-label="Address">{r.ip_address}</td>
                    <td data-label="Host name">{r.hostname ?? "—"}</td>
                    <td data-label="Open ports">{r.open_ports.map((p) => portText(p)).join(", ") || "—"}</td>
                    <td data-label="Device">
                      {[r.vendor, r.model, r.serial_number ? `serial ${r.serial_number}` : null].filter(Boolean).join(" ") || "—"}
                    </td>
                    <td data-label="Match">
                      {r.matched_entity_type === "hardware" && r.matched_entity_id ? (
                        <Link href={`/inventory/hardware/${r.matched_entity_id}`}>hardware #{r.matched_entity_id}</Link>
                      ) : (
                        r.state
                      )}
                    </td>
                    <td data-label="Review">
                      {r.merge_status === "pending" && canScan ? (
                        <span class="actions">
                          <button type="button" disabled={review.busy} onClick={() => void decide("accept", [r.id])}>
                            Merge
                          </button>
                          <button type="button" disabled={review.busy} onClick={() => void decide("reject", [r.id])}>
                            Reject
                          </button>
                        </span>
                      ) : (
                        <span class="actions">
                          <Status value={r.merge_status} />
                          {canScan && r.merge_status !== "pending" && r.merge_audit_id !== null && (
                            <button type="button" disabled={review.busy} onClick={() => undo(r.merge_audit_id!, r.ip_address)}>
                              Undo {r.merge_status === "rejected" ? "reject" : "merge"}
                            </button>
                          )}
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {results.data?.items.length === 0 && <p class="empty">Nothing found yet.</p>}
          </div>
          <JobLogs jobId={job.id} refresh={tick} />
        </>
      )}
      <ListenerPanel refresh={tick} />
    </section>
  );
}
