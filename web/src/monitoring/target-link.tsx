// A monitor's target (an inventory record) as a link to its detail screen where the console has one;
// external nodes and IPAM addresses have no screen yet, so they are named without a link.
import { anyApi, ok } from "../api/client.ts";
import { groupOf } from "../inventory/groups.ts";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { targetNoun } from "./target-kinds.ts";
import { useLoad } from "../use-load.ts";

/** The inventory group whose screen shows each target type. */
const SCREEN: Record<string, string> = {
  hardware: "hardware",
  compute_unit: "compute",
  service: "services",
};

export function TargetLink({ type, id, name }: { type: string; id: number; name?: string | null | undefined }) {
  const t = useT();
  const group = SCREEN[type];
  const noun = targetNoun(type);
  const text = name ? t("monitoring:target.named", { noun, name }) : t("monitoring:target.numbered", { noun, id });
  return group ? <Link href={`/inventory/${group}/${id}`}>{text}</Link> : <span>{text}</span>;
}

/** The target record's name read from its group's API (undefined while loading, unreadable or gone). */
export function useTargetName(type: string | null, id: number | null): string | undefined {
  const group = groupOf(type ? SCREEN[type] : undefined);
  const item = useLoad(async () => {
    if (!group || id == null) return undefined;
    const row = (await ok(anyApi.GET(group.itemPath, { params: { path: { [group.idParam]: String(id) } } }))) as { name?: unknown };
    return typeof row.name === "string" ? row.name : undefined;
  }, [group?.key, id]);
  return item.data;
}
