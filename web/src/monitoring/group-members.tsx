// A group monitor's members (GET /monitors?group_id=, docs/adr/0440) with their states, on the group's
// page: what its state is made of. `version` changes when the live stream reports on the group, and the
// list is read again (a member's change moves the group, so the group's reload covers it).
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";

const SHOWN = 100;

export function GroupMembers({ groupId, version }: { groupId: number; version: number }) {
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
                    <Status value={m.enabled ? m.status : "paused"} />
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
