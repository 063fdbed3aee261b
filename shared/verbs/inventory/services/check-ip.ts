// Is this IP already used? Services (their address or a port's), compute units, hardware and IPAM
// records, in one query. Stored addresses may carry a prefix ("10.0.0.5/24") and any letter case, so
// both sides are compared as the bare, lower-case address; IPv6 also in its canonical spelling.
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { formatIp, parseIp } from "../../../net/cidr.ts";
import { defineRead } from "../../verb.ts";

export interface IpConflict {
  type: "service" | "compute_unit" | "hardware" | "ipam";
  id: number;
  name: string;
}

/** The spellings of `ip` a stored address is compared with. */
export function ipSpellings(ip: string): string[] {
  const parsed = parseIp(ip);
  return [...new Set([ip.toLowerCase(), ...(parsed ? [formatIp(parsed)] : [])])];
}

// A POST in the catalogue, so it needs the write scope: editors ask it while assigning an address.
export const checkIp = defineRead(
  { scope: "write:services" },
  async (ctx, input: { ip_address: string; exclude_service_id?: number | null | undefined }) => {
    const spellings = ipSpellings(input.ip_address);
    const list = sql.join(
      spellings.map((s) => sql`${s}`),
      sql`, `,
    );
    const bare = (column: string) => sql`lower(split_part(${sql.raw(column)}, '/', 1)) in (${list})`;
    const exclude = input.exclude_service_id ?? 0;
    const conflicts = await queryRows<IpConflict>(
      ctx.db,
      sql`select 'service' as type, id, name from services
          where id <> ${exclude}
            and (${bare("ip_address")} or exists (select 1 from jsonb_array_elements(ports) p where ${bare("p->>'ip'")}))
        union all
        select 'compute_unit', id, name from compute_units where ${bare("ip_address")}
        union all
        select 'hardware', id, name from hardware where ${bare("ip_address")}
        union all
        select 'ipam', id, coalesce(hostname, address) from ip_addresses
          where ${bare("address")} and not (coalesce(assigned_type, '') = 'service' and assigned_id = ${exclude})
        order by 1, 3, 2`,
    );
    return { ip_address: spellings.at(-1)!, in_use: conflicts.length > 0, conflicts };
  },
);
