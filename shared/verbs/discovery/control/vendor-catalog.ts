// GET /discovery/vendor-catalog: the vendors the knowledge base knows (its OUI prefixes and hostname
// patterns), each with a stable key, how many entries name it and the device types its patterns give:
// what the review UI offers when a result is assigned a vendor.
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { defineRead } from "../../verb.ts";
import { READ_DISCOVERY } from "../scopes.ts";

/** "Hewlett Packard Enterprise" -> "hewlett-packard-enterprise". */
export const vendorKey = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "") || "vendor";

export const vendorCatalog = defineRead({ scope: READ_DISCOVERY }, async (ctx, _input: void) => {
  const rows = await queryRows<{ name: string; oui_prefixes: number; hostname_patterns: number; device_types: string[] | null }>(
    ctx.db,
    sql`select v.name, sum(v.oui)::int as oui_prefixes, sum(v.host)::int as hostname_patterns,
          array_remove(array_agg(distinct v.device_type), null) as device_types
        from (
          select trim(vendor) as name, 1 as oui, 0 as host, null::text as device_type from kb_oui where trim(vendor) <> ''
          union all
          select trim(vendor), 0, 1, device_type from kb_hostnames where vendor is not null and trim(vendor) <> ''
        ) v
        group by v.name order by lower(v.name), v.name`,
  );
  // Two spellings that slug alike ("ASUSTek" / "AsusTek") share a key: the first keeps it, the next get a suffix.
  const seen = new Map<string, number>();
  const vendors = rows.map((r) => {
    const base = vendorKey(r.name);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return {
      key: n === 1 ? base : `${base}-${n}`,
      name: r.name,
      oui_prefixes: r.oui_prefixes,
      hostname_patterns: r.hostname_patterns,
      device_types: r.device_types ?? [],
    };
  });
  return { vendors, total: vendors.length };
});
