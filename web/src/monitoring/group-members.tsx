// A group monitor's members (GET /monitors?group_id=, docs/adr/0440) with their states, on the group's
// page: what its state is made of. `version` changes when the page reads again (at most once a minute), and
// `heard` are status changes the page's live stream reported since: a member's newer one shows at once.
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";

const SHOWN = 100;

/** A monitor's status change heard on the live stream. */
export interface HeardStatus {
  status: string;
  ts: string;
}

/** The member's state: the one heard live when it is newer than the read's. */
function stateOf(m: { status: string; last_status_change_at: string | null }, heard: HeardStatus | undefined): string {
  return heard && (m.last_status_change_at == null || Date.parse(heard.ts) > Date.parse(m.last_status_change_at)) ? heard.status : m.status;
}

export function GroupMembers({ groupId, version, heard }: { groupId: number; version: number; heard: Record<number, HeardStatus> }) {
  const t = useT();
  const members = useLoad(
    () => ok(api.GET("/api/v1/monitors", { params: { query: { group_id: String(groupId), limit: String(SHOWN), sort: "name" } } })),
    [groupId, version],
  );
  const page = members.data;
  return (
    <section aria-labelledby="group-members-title">
      <h2 id="group-members-title">{t("monitoring:members.title")}</h2>
      {members.error !== undefined && <Notice kind="error">{messageOf(members.error)}</Notice>}
      {page && page.items.length === 0 && <p>{t("monitoring:members.empty")}</p>}
      {page && page.items.length > 0 && (
        <div class="table-wrap">
          <table class="group-members">
            <caption class="visually-hidden">{t("monitoring:members.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("monitoring:col.monitor")}</th>
                <th scope="col">{t("monitoring:col.state")}</th>
                <th scope="col">{t("monitoring:col.check")}</th>
                <th scope="col">{t("monitoring:col.lastMessage")}</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((m) => (
                <tr key={m.id}>
                  <td>
                    <Link href={`/monitors/${m.id}`}>{m.name}</Link>
                  </td>
                  <td>
                    <Status value={m.enabled ? stateOf(m, heard[m.id]) : "paused"} />
                  </td>
                  <td>
                    {m.check_type} {m.host}
                  </td>
                  <td>{m.last_msg ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {page.total > page.items.length && (
            <p class="meta">{t("monitoring:members.shown", { shown: page.items.length, count: page.total })}</p>
          )}
        </div>
      )}
    </section>
  );
}
