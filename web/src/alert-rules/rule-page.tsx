// One alert rule's page (/alert-rules/<id>): its condition and fields, and where it stands on each node
// (GET /alert-rules/<id>/state: ok, pending or firing, since when, the value judged then). Edit for a role
// with write:monitors, Delete (in a dialog) with delete:monitors.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { DeleteRuleDialog } from "./delete-rule-dialog.tsx";
import { RuleScope } from "./rule-scope.tsx";
import { conditionText, duration } from "./rule-text.ts";
import { RelativeTime } from "../components/time.tsx";

export function RulePage({ id }: { id: string }) {
  const session = useSession();
  const path = { rule_id: id };
  const rule = useLoad(() => ok(api.GET("/api/v1/alert-rules/{rule_id}", { params: { path } })), [id]);
  const state = useLoad(() => ok(api.GET("/api/v1/alert-rules/{rule_id}/state", { params: { path } })), [id]);
  const [deleting, setDeleting] = useState(false);

  if (rule.error !== undefined && !rule.data) return <Notice kind="error">{messageOf(rule.error)}</Notice>;
  const r = rule.data;
  if (!r) return <p aria-busy="true">Loading…</p>;
  const nodes = state.data?.items ?? [];
  return (
    <article aria-labelledby="rule-title">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href="/alert-rules">Alert rules</Link>
          </p>
          <h1 id="rule-title">
            {r.name} {!r.enabled && <Status value="paused" />}
          </h1>
        </div>
        <div class="actions">
          {session.can("write:monitors") && (
            <Link href={`/alert-rules/${r.id}/edit`} class="button">
              Edit
            </Link>
          )}
          {session.can("delete:monitors") && (
            <button type="button" class="danger" onClick={() => setDeleting(true)}>
              Delete…
            </button>
          )}
        </div>
      </header>
      {deleting && <DeleteRuleDialog rule={r} onClose={() => setDeleting(false)} />}
      {r.description && <p>{r.description}</p>}
      <dl class="fields">
        <dt>Condition</dt>
        <dd>
          <code>{conditionText(r)}</code>
        </dd>
        <dt>Metric</dt>
        <dd>{r.metric}</dd>
        <dt>Compare</dt>
        <dd>{r.aggregation === "last" ? "each sample" : `${r.aggregation} over ${duration(r.window_secs)}`}</dd>
        <dt>Fires</dt>
        <dd>
          {r.operator === ">" ? "above" : "below"} {r.threshold}
          {r.for_secs > 0 ? ` held for ${duration(r.for_secs)}` : " at once"}
        </dd>
        <dt>Clears</dt>
        <dd>
          {r.operator === ">" ? "below" : "above"} {r.clear_threshold}
        </dd>
        <dt>Severity</dt>
        <dd>{r.severity}</dd>
        <dt>Applies to</dt>
        <dd>
          <RuleScope rule={r} />
        </dd>
        <dt>Enabled</dt>
        <dd>{r.enabled ? "yes" : "no (not judged)"}</dd>
      </dl>
      <section aria-labelledby="rule-state-title">
        <h2 id="rule-state-title">State per node</h2>
        {state.error !== undefined && <Notice kind="error">{messageOf(state.error)}</Notice>}
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Node</th>
                <th scope="col">State</th>
                <th scope="col">Since</th>
                <th scope="col">Last value</th>
              </tr>
            </thead>
            <tbody>
              {nodes.map((n) => (
                <tr key={n.hardware_id}>
                  <td data-label="Node">
                    <Link href={`/inventory/hardware/${n.hardware_id}`}>{n.hardware_name ?? `node #${n.hardware_id}`}</Link>
                  </td>
                  <td data-label="State">
                    <Status value={n.state} />
                  </td>
                  <td data-label="Since">
                    <RelativeTime at={n.state === "firing" ? n.firing_since : n.state === "pending" ? n.pending_since : n.changed_at} />
                  </td>
                  <td data-label="Last value">{n.last_value ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {state.data && nodes.length === 0 && <p class="empty">The rule has not left ok on any node.</p>}
        </div>
      </section>
    </article>
  );
}
