// A monitor's target (an inventory record) as a link to its detail screen where the console has one;
// external nodes and IPAM addresses have no screen yet, so they are named without a link.
import { anyApi, ok } from "../api/client.ts";
import { groupOf } from "../inventory/groups.ts";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";

const SCREEN: Record<string, { group: string; noun: string }> = {
  hardware: { group: "hardware", noun: "hardware node" },
  compute_unit: { group: "compute", noun: "compute unit" },
  service: { group: "services", noun: "service" },
  external_node: { group: "", noun: "external node" },
  ip: { group: "", noun: "address" },
};

export function TargetLink({ type, id, name }: { type: string; id: number; name?: string | null | undefined }) {
  const s = SCREEN[type] ?? { group: "", noun: type };
  const text = name ? `${s.noun} ${name}` : `${s.noun} #${id}`;
  return s.group ? <Link href={`/inventory/${s.group}/${id}`}>{text}</Link> : <span>{text}</span>;
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
