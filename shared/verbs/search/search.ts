// GET /search: one query across every resource. Each type is its own branch of a UNION ALL with its
// own limit, so a common word in services cannot crowd out the one matching hardware node.
import { sql, type SQL } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { escapeLike } from "../resources/list.ts";
import { defineRead } from "../verb.ts";

/** type -> [table, name column, subtitle expression, extra searched columns]. */
const SOURCES = {
  hardware: ["hardware", "name", "coalesce(ip_address, role)", ["ip_address", "role", "vendor", "model"]],
  compute_unit: ["compute_units", "name", "kind || coalesce(' ' || ip_address, '')", ["ip_address", "os"]],
  service: ["services", "name", "slug", ["slug", "url", "ip_address", "description"]],
  storage: ["storage", "name", "kind", ["path"]],
  network: ["networks", "name", "cidr", ["cidr", "description"]],
  cluster: ["hardware_clusters", "name", "type", ["description"]],
  external_node: ["external_nodes", "name", "provider", ["provider", "region", "ip_address", "url"]],
  misc: ["misc_items", "name", "kind", ["description", "url"]],
  doc: ["docs", "title", "category", ["body_md"]],
  ip_address: ["ip_addresses", "address", "hostname", ["hostname", "mac_address"]],
  site: ["sites", "name", "address", ["address", "description"]],
  vlan: ["vlans", "name", "'VLAN ' || vlan_id", ["description"]],
} as const;
export type SearchType = keyof typeof SOURCES;
export const SEARCH_TYPES = Object.keys(SOURCES) as SearchType[];

export interface SearchHit {
  type: SearchType;
  id: number;
  name: string;
  subtitle: string | null;
}

/**
 * The text a row is searched by: its name and extra columns joined by spaces, lower-cased. Migration
 * 0005 indexes exactly this expression per table (trigram GIN), so a search is an index scan; a unit
 * test holds the two in step.
 */
export function searchText(type: SearchType): string {
  const [, name, , extra] = SOURCES[type];
  return `lower(${[name, ...extra].map((c) => `coalesce(${c}, '')`).join(" || ' ' || ")})`;
}

export function searchIndexSql(type: SearchType): string {
  return `CREATE INDEX IF NOT EXISTS "search_${SOURCES[type][0]}_trgm_idx" ON "${SOURCES[type][0]}" USING gin ((${searchText(type)}) gin_trgm_ops);`;
}

function branch(type: SearchType, pattern: string, limit: number): SQL {
  const [table, name, subtitle] = SOURCES[type];
  const match = sql`${sql.raw(searchText(type))} like ${pattern} escape '\\'`;
  // Name matches rank first, then shorter names (closer matches), then id for a stable order.
  return sql`(select ${type}::text as type, id, ${sql.identifier(name)}::text as name, (${sql.raw(subtitle)})::text as subtitle
    from ${sql.identifier(table)} where ${match}
    order by (lower(${sql.identifier(name)}::text) like ${pattern} escape '\\') desc, length(${sql.identifier(name)}::text), id
    limit ${limit})`;
}

export interface SearchQuery {
  q: string;
  types?: SearchType[] | undefined;
  limit: number;
}

export const search = defineRead({ scope: "read:search" }, async (ctx, { q, types, limit }: SearchQuery) => {
  const pattern = `%${escapeLike(q.toLowerCase())}%`;
  const chosen = types && types.length > 0 ? types : SEARCH_TYPES;
  const rows = await queryRows<SearchHit>(
    ctx.db,
    sql.join(
      chosen.map((t) => branch(t, pattern, limit)),
      sql` union all `,
    ),
  );
  const counts = Object.fromEntries(chosen.map((t) => [t, rows.filter((r) => r.type === t).length]));
  return { query: q, results: rows.map((r) => ({ ...r, id: Number(r.id) })), counts };
});
