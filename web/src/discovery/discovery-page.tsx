// Discovery: start a scan (addresses, ranges or CIDRs; the probes to run), watch its progress live from
// /discovery/stream, and review what it found: merge a result into the inventory or reject it, one by one
// or the selected ones together.
import { useRef, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { LiveBadge, useStream } from "../live.tsx";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";

const PROBES = ["icmp", "tcp", "dns", "banner"] as const;
const list = (s: string) => s.split(/[\s,]+/).map((x) => x.trim()).filter(Boolean);

export function DiscoveryPage() {
  const session = useSession();
  const canScan = session.can("write:discovery");
  const [form, setForm] = useState({ targets: "", ports: "22, 80, 443", label: "" });
  const [probes, setProbes] = useState<Set<string>>(new Set(["icmp", "tcp"]));
  const [jobId, setJobId] = useState<number | undefined>();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const start = useSubmit();
  const review = useSubmit();
  const jobs = useLoad(() => ok(api.GET("/api/v1/discovery/jobs", { params: { query: { limit: "10", sort: "created_at", direction: "desc" } } })), []);
  const current = jobId ?? jobs.data?.items[0]?.id;
  const results = useLoad(
    async () => (current === undefined ? undefined : ok(api.GET("/api/v1/discovery/jobs/{job_id}/results", { params: { path: { job_id: String(current) }, query: { limit: "100", sort: "ip_address" } } }))),
    [current],
  );
  const soon = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const live = useStream("/api/v1/discovery/stream", () => {
    clearTimeout(soon.current);
    soon.current = setTimeout(() => {
      jobs.reload();
      results.reload();
    }, 300);
  });

  const scan = (e: Event) => {
    e.preventDefault();
    void start.run(async () => {
      const ports = list(form.ports).map(Number);
      const job = await ok(
        api.POST("/api/v1/discovery/scan", {
          body: { targets: list(form.targets), scan_types: [...probes], ...(probes.has("tcp") || probes.has("banner") ? { tcp_ports: ports } : {}), ...(form.label ? { label: form.label } : {}) },
        }),
      );
      // Several CIDRs may start one job each: show the first.
      setJobId((Array.isArray(job) ? job[0] : job)?.id);
      jobs.reload();
    });
  };
  const decide = (action: "accept" | "reject", ids: number[]) =>
    review.run(async () => {
      if (ids.length === 1) await ok(api.POST("/api/v1/discovery/results/{result_id}/merge", { params: { path: { result_id: String(ids[0]) } }, body: { action } }));
      else await ok(api.POST("/api/v1/discovery/results/bulk-merge", { body: { action, result_ids: ids } }));
      setSelected(new Set());
      results.reload();
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
      {canScan && (
        <form class="card" onSubmit={scan} aria-labelledby="scan-title" noValidate>
          <h2 id="scan-title">Start a scan</h2>
          <TextInput id="scan-targets" label="Targets" placeholder="192.168.1.0/24, 10.0.0.5-10.0.0.20" hint="Addresses, ranges or CIDRs, separated by commas" value={form.targets} error={start.fields.targets} onValue={(v) => setForm({ ...form, targets: v })} />
          <fieldset class="probes">
            <legend>Probes</legend>
            {PROBES.map((p) => (
              <label key={p} class="check">
                <input type="checkbox" checked={probes.has(p)} onChange={() => setProbes((s) => (s.has(p) ? new Set([...s].filter((x) => x !== p)) : new Set([...s, p])))} /> {p}
              </label>
            ))}
          </fieldset>
          <TextInput id="scan-ports" label="TCP ports" value={form.ports} error={start.fields.tcp_ports} onValue={(v) => setForm({ ...form, ports: v })} />
          <TextInput id="scan-label" label="Label (optional)" value={form.label} onValue={(v) => setForm({ ...form, label: v })} />
          <Notice kind="error">{start.error}</Notice>
          <button type="submit" class="primary" disabled={start.busy || probes.size === 0}>Start scan</button>
        </form>
      )}
      <h2>Recent scans</h2>
      {jobs.error !== undefined && <Notice kind="error">{messageOf(jobs.error)}</Notice>}
      <ul class="cards">
        {jobs.data?.items.map((j) => (
          <li key={j.id} class={`card${j.id === current ? " selected" : ""}`}>
            <button type="button" class="link" aria-pressed={j.id === current} onClick={() => setJobId(j.id)}>
              Scan {j.id}{j.label ? ` (${j.label})` : ""}: {j.targets.join(", ") || j.target_cidr}
            </button>{" "}
            <Status value={j.status} />
            <progress max={Math.max(1, j.addresses_total)} value={j.addresses_done} aria-label={`Progress of scan ${j.id}`} />
            <span class="meta">
              {j.addresses_done} of {j.addresses_total} addresses, {j.hosts_found} found{j.progress_message ? ` — ${j.progress_message}` : ""}
              {j.error_text ? ` — ${j.error_text}` : ""}
            </span>
          </li>
        ))}
      </ul>
      {job && (
        <>
          <h2>Results of scan {job.id}</h2>
          <Notice kind="error">{review.error}</Notice>
          {canScan && pending.length > 0 && (
            <div class="actions">
              <button type="button" disabled={selected.size === 0 || review.busy} onClick={() => void decide("accept", [...selected])}>Merge selected ({selected.size})</button>
              <button type="button" disabled={selected.size === 0 || review.busy} onClick={() => void decide("reject", [...selected])}>Reject selected</button>
            </div>
          )}
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Results of scan {job.id}</caption>
              <thead>
                <tr>
                  <th scope="col"><span class="visually-hidden">Select</span></th>
                  <th scope="col">Address</th>
                  <th scope="col">Host name</th>
                  <th scope="col">Open ports</th>
                  <th scope="col">Match</th>
                  <th scope="col">Review</th>
                </tr>
              </thead>
              <tbody>
                {results.data?.items.map((r) => (
                  <tr key={r.id}>
                    <td data-label="Select">
                      {r.merge_status === "pending" && canScan && <input type="checkbox" aria-label={`Select ${r.ip_address}`} checked={selected.has(r.id)} onChange={() => toggle(r.id)} />}
                    </td>
                    <td data-label="Address">{r.ip_address}</td>
                    <td data-label="Host name">{r.hostname ?? "—"}</td>
                    <td data-label="Open ports">{r.open_ports.map((p) => p.port).join(", ") || "—"}</td>
                    <td data-label="Match">
                      {r.matched_entity_type === "hardware" && r.matched_entity_id ? <Link href={`/inventory/hardware/${r.matched_entity_id}`}>hardware #{r.matched_entity_id}</Link> : r.state}
                    </td>
                    <td data-label="Review">
                      {r.merge_status === "pending" && canScan ? (
                        <span class="actions">
                          <button type="button" disabled={review.busy} onClick={() => void decide("accept", [r.id])}>Merge</button>
                          <button type="button" disabled={review.busy} onClick={() => void decide("reject", [r.id])}>Reject</button>
                        </span>
                      ) : (
                        <Status value={r.merge_status} />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {results.data?.items.length === 0 && <p class="empty">Nothing found yet.</p>}
          </div>
        </>
      )}
    </section>
  );
}
