// What an alert is about: its monitor (a link to the monitor's page), else its target record, else its
// subject as the API names it.
import { TargetLink } from "../monitoring/target-link.tsx";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";

interface About {
  monitor_id: number | null;
  monitor_name?: string | null;
  target_type: string | null;
  target_id: number | null;
  subject: string | null;
}

export function SubjectLink({ alert: a }: { alert: About }) {
  const t = useT();
  if (a.monitor_id != null)
    return <Link href={`/monitors/${a.monitor_id}`}>{a.monitor_name ?? t("alerts:monitorN", { id: a.monitor_id })}</Link>;
  if (a.target_type && a.target_id != null) return <TargetLink type={a.target_type} id={a.target_id} />;
  return <span>{a.subject ?? "—"}</span>;
}
