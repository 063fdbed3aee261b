// The threshold alert rules (/alert-rules): each rule's condition in one line, severity, scope, whether it
// is enabled and on how many nodes it fires now (the list's firing_count), "New rule" for a role with
// write:monitors.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { Pager } from "../components/pager.tsx";
import { Status } from "../components/status.tsx";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { RuleScope } from "./rule-scope.tsx";
import { conditionText } from "./rule-text.ts";

const PAGE = 100;

export function RulesPage() {
  const canWrite = useSession().can("write:monitors");
  const [offset, setOffset] = useState(0);
  const page = useLoad(
    () => ok(api.GET("/api/v1/alert-rules", { params: { query: { limit: String(PAGE), offset: String(offset), sort: "name" } } })),
    [offset],
  );
  return (
    <section aria-labelledby="rules-title">
      <header class="page-head">
        <h1 id="rules-title">Alert rules</h1>
        {canWrite && (
          <div class="actions">
            <Link href="/alert-rules/new" class="button primary">
              New rule
            </Link>
          </div>
        )}
      </header>
      <p class="meta">
        A rule raises an alert when a metric of the nodes in its scope crosses a threshold for long enough, and another when it is back.
      </p>
      {page.error !== undefined && <Notice kind="error">{messageOf(page.error)}</Notice>}
      <div class="table-wrap">
        <table>
          <caption>Threshold alert rules</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Condition</th>
              <th scope="col">Severity</th>
              <th scope="col">Applies to</th>
              <th scope="col">Enabled</th>
              <th scope="col">Firing on</th>
            </tr>
          </thead>
          <tbody>
            {(page.data?.items ?? []).map((r) => (
              <tr key={r.id} data-rule={r.id}>
                <td data-label="Name">
                  <Link href={`/alert-rules/${r.id}`}>{r.name}</Link>
                </td>
                <td data-label="Condition">
                  <code>{conditionText(r)}</code>
                </td>
                <td data-label="Severity">{r.severity}</td>
                <td data-label="Applies to">
                  <RuleScope rule={r} />
                </td>
                <td data-label="Enabled">{r.enabled ? "yes" : <Status value="paused" />}</td>
                <td data-label="Firing on">
                  {r.firing_count === 0 ? "—" : `${r.firing_count} ${r.firing_count === 1 ? "node" : "nodes"}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {page.data && page.data.items.length === 0 && (
          <p class="empty">
            {canWrite
              ? "No alert rules yet. Add one with New rule."
              : "No alert rules yet. Your role can read rules but not create them (write:monitors)."}
          </p>
        )}
      </div>
      {page.data && <Pager offset={offset} limit={PAGE} total={page.data.total} onOffset={setOffset} label="Pages" />}
    </section>
  );
}
