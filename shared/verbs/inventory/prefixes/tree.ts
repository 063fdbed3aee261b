// What a prefix's place in its VRF computes to: its parent (the closest strictly containing prefix of
// the same VRF), depth (how many distinct networks contain it), children (every prefix it strictly
// contains) and utilisation. Containment is PostgreSQL's `<<` on the cidr column, over the GiST index;
// nothing of it is stored, so a /24 created before its /16 is found under it all the same (ADR 0486).
import { type SQL, sql } from "drizzle-orm";
import { type Cidr, parseNetwork } from "../../../domain/cidr-math.ts";
import { type Utilisation, utilisation } from "../../../domain/prefix-space.ts";
import { type Db, queryRows } from "../../../db/database.ts";
import { prefixes } from "../../../db/schema/index.ts";
import { addressUses } from "../ipam/address-uses.ts";

type Row = typeof prefixes.$inferSelect;

export interface PrefixFacts {
  parent_id: number | null;
  depth: number;
  children: number;
  utilisation: Utilisation;
}

/** The stored cidr text parsed; the column's type guarantees it is a network. */
export function cidrOf(text: string): Cidr {
  const parsed = parseNetwork(text);
  if (!parsed.ok) throw new Error(`prefix column holds ${text}: ${parsed.message}`);
  return parsed.value;
}

const idList = (ids: number[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/** The prefixes of the same VRF strictly inside prefix `id`, as stored text. */
export async function descendantsOf(db: Db, row: { prefix: string; vrf_id: number | null }): Promise<Cidr[]> {
  const rows = await queryRows<{ prefix: string }>(
    db,
    sql`select prefix::text as prefix from ${prefixes}
        where prefix << ${row.prefix}::cidr and vrf_id is not distinct from ${row.vrf_id}`,
  );
  return rows.map((r) => cidrOf(r.prefix));
}

/** The facts of a page of prefixes: two statements for the tree, one address lookup per counted prefix. */
export async function prefixFacts(db: Db, rows: Row[]): Promise<Map<number, PrefixFacts>> {
  const out = new Map<number, PrefixFacts>();
  if (rows.length === 0) return out;
  const ids = idList(rows.map((r) => r.id));
  const [ancestors, descendants] = await Promise.all([
    queryRows<{ id: number; ancestor_id: number; prefix: string; len: number }>(
      db,
      sql`select p.id, a.id as ancestor_id, a.prefix::text as prefix, masklen(a.prefix) as len
          from ${prefixes} p join ${prefixes} a on a.prefix >> p.prefix and a.vrf_id is not distinct from p.vrf_id
          where p.id in (${ids}) order by p.id, masklen(a.prefix) desc, a.id`,
    ),
    queryRows<{ id: number; prefix: string }>(
      db,
      sql`select p.id, c.prefix::text as prefix
          from ${prefixes} p join ${prefixes} c on c.prefix << p.prefix and c.vrf_id is not distinct from p.vrf_id
          where p.id in (${ids})`,
    ),
  ]);
  const group = <T extends { id: number }>(list: T[]) => {
    const m = new Map<number, T[]>();
    for (const r of list) m.set(r.id, [...(m.get(r.id) ?? []), r]);
    return m;
  };
  const up = group(ancestors);
  const down = group(descendants);
  await Promise.all(
    rows.map(async (r) => {
      const cidr = cidrOf(r.prefix);
      const chain = up.get(r.id) ?? [];
      const children = (down.get(r.id) ?? []).map((d) => cidrOf(d.prefix));
      const container = r.status === "container";
      const counted = !container && !r.mark_utilized;
      const addresses = counted ? (await addressUses(db, cidr)).filter((u) => u.status !== "free").map((u) => u.ip.value) : [];
      out.set(r.id, {
        parent_id: chain[0]?.ancestor_id ?? null,
        depth: new Set(chain.map((a) => a.prefix)).size,
        children: children.length,
        utilisation: utilisation(cidr, { container, markUtilized: r.mark_utilized, children, addresses }),
      });
    }),
  );
  return out;
}
