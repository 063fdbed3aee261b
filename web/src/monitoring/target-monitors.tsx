// The monitors watching an inventory record (GET /monitors?target_type=&target_id=), each with its state
// (shape and colour, components/status.tsx; "paused" for a disabled one) and a link to its page: on a
// record's detail screen and in the topology's node panel. The node's own status follows them
// (docs/adr/0466).
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";

type TargetType = "hardware" | "compute_unit" | "service" | "external_node";
const TARGET_TYPES: readonly string[] = ["hardware", "compute_unit", "service", "external_node"];
/** The target type of each inventory group whose records monitors can watch. */
const GROUP_TARGET: Record<string, TargetType> = {
  hardware: "hardware",
  compute: "compute_unit",
  services: "service",
  external: "external_node",
};
const SHOWN = 50;

export function TargetMonitors({ type, id, heading = "h2" }: { type: string; id: number | string; heading?: "h2" | "h3" }) {
  const t = useT();
  const target = TARGET_TYPES.includes(type) ? (type as TargetType) : undefined;
  const list = useLoad(
    async () =>
      target
        ? ok(
            api.GET("/api/v1/monitors", {
              params: { query: { target_type: target, target_id: String(id), limit: String(SHOWN), sort: "name" } },
            }),
          )
        : undefined,
    [target, id],
  );
  if (!target) return null;
  const Heading = heading;
  const items = list.data?.items ?? [];
  return (
    <section class="relation target-monitors" aria-label={t("monitoring:targetMonitors.title")}>
      <Heading>
        {t("monitoring:targetMonitors.title")} {list.data && <span class="count">({list.data.total})</span>}
      </Heading>
      {list.error !== undefined && <Notice kind="error">{messageOf(list.error)}</Notice>}
      {list.data && items.length === 0 && <p class="empty">{t("monitoring:targetMonitors.empty")}</p>}
      <ul>
        {items.map((m) => (
          <li key={m.id}>
            <Link href={`/monitors/${m.id}`}>{m.name}</Link> <Status value={m.enabled ? m.status : "paused"} />{" "}
            <span class="meta">{m.check_type}</span>
          </li>
        ))}
      </ul>
      {list.data && list.data.total > items.length && (
        <p class="meta">{t("monitoring:targetMonitors.showing", { shown: items.length, total: list.data.total })}</p>
      )}
    </section>
  );
}

/** The monitors of a record of an inventory group (nothing for a group monitors cannot watch). */
export function GroupRecordMonitors({ group, id }: { group: string; id: string }) {
  const type = GROUP_TARGET[group];
  return type ? <TargetMonitors type={type} id={id} /> : null;
}
