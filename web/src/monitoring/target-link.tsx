// A monitor's target (an inventory record) as a link to its detail screen where the console has one;
// external nodes and IPAM addresses have no screen yet, so they are named without a link.
import { anyApi, ok } from "../api/client.ts";
import { groupOf } from "../inventory/groups.ts";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";

const SCREEN: Record<string, { group: string; noun: string }> = {
  hardware: { group: "hardware", noun: i18nKey("monitoring:target.hardware") },
  compute_unit: { group: "compute", noun: i18nKey("monitoring:target.compute") },
  service: { group: "services", noun: i18nKey("monitoring:target.service") },
  external_node: { group: "", noun: i18nKey("monitoring:target.external") },
  ip: { group: "", noun: i18nKey("monitoring:target.ip") },
};

export function TargetLink({ type, id, name }: { type: string; id: number; name?: string | null | undefined }) {
  const t = useT();
  const s = SCREEN[type];
  // A target type the console does not know is named as the API gives it.
  const noun = s ? t(s.noun) : type;
  const text = name ? t("monitoring:target.named", { noun, name }) : t("monitoring:target.numbered", { noun, id });
  return s?.group ? <Link href={`/inventory/${s.group}/${id}`}>{text}</Link> : <span>{text}</span>;
}

/** The target record's name read from its group's API (undefined while loading, unreadable or gone). */
export function useTargetName(type: string | null, id: number | null): string | undefined {
  const group = groupOf(type ? SCREEN[type]?.group : undefined);
  const item = useLoad(async () => {
    if (!group || id == null) return undefined;
    const row = (await ok(anyApi.GET(group.itemPath, { params: { path: { [group.idParam]: String(id) } } }))) as { name?: unknown };
    return typeof row.name === "string" ? row.name : undefined;
  }, [group?.key, id]);
  return item.data;
}
