// "Degraded because upstream X is down" (docs/adr/0454-status-pages.md): for an item that is degraded or
// down, the first item on the same page, in page order, that is down and whose inventory assets reach
// this item's through the dependency graph (the blast radius walk of shared/verbs/intelligence). Only
// items on the page are named, by their public names; nothing else of the graph leaves here.
import type { Db } from "../../db/database.ts";
import { ASSET_TYPES, type AssetType } from "../../domain/blast-radius.ts";
import type { ItemState } from "../../domain/status-pages/item-state.ts";
import { computeBlastRadius } from "../intelligence/blast-radius.ts";
import type { MemberMonitor } from "./item-monitors.ts";
import type { ItemRow } from "./page-rows.ts";

/** At most this many assets of one down item are walked: a tag over a whole fleet would be a walk per host. */
const MAX_WALKS_PER_ITEM = 20;

const isAsset = (t: string | null): t is AssetType => t !== null && (ASSET_TYPES as readonly string[]).includes(t);

/** The inventory assets an item stands for, as "type:id" keys. */
function assetsOf(item: ItemRow, members: readonly MemberMonitor[]): string[] {
  const keys = new Set<string>();
  if (item.kind === "service" && item.service_id !== null) keys.add(`service:${item.service_id}`);
  for (const m of members) if (isAsset(m.target_type) && m.target_id !== null) keys.add(`${m.target_type}:${m.target_id}`);
  return [...keys];
}

/** The upstream item id for each item it explains (absent: no listed upstream is down). */
export async function upstreamsDown(
  db: Db,
  items: readonly ItemRow[],
  members: Map<number, MemberMonitor[]>,
  states: Map<number, ItemState>,
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const hurt = items.filter((i) => states.get(i.id) === "degraded" || states.get(i.id) === "down");
  const down = items.filter((i) => states.get(i.id) === "down");
  if (hurt.length < 2 || down.length === 0) return out;
  const assets = new Map(items.map((i) => [i.id, assetsOf(i, members.get(i.id) ?? [])]));
  for (const upstream of down) {
    const reached = new Set<string>();
    for (const key of assets.get(upstream.id)!.slice(0, MAX_WALKS_PER_ITEM)) {
      const [type, id] = key.split(":") as [AssetType, string];
      const b = await computeBlastRadius(db, type, Number(id)).catch(() => null);
      if (!b) continue;
      for (const i of [...b.impacted_hardware, ...b.impacted_compute_units, ...b.impacted_services, ...b.impacted_storage])
        reached.add(`${i.asset_type}:${i.asset_id}`);
    }
    for (const item of hurt) {
      if (item.id === upstream.id || out.has(item.id)) continue;
      if (assets.get(item.id)!.some((k) => reached.has(k)) && !assets.get(upstream.id)!.some((k) => assets.get(item.id)!.includes(k)))
        out.set(item.id, upstream.id);
    }
  }
  return out;
}
