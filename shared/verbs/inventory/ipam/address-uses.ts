// Every place an address is recorded: IPAM rows, hardware, compute units, services (and their ports),
// network memberships and gateways. Those columns are free text, so SQL narrows them with LIKE
// patterns (a superset) and the caller decides exactly with parsed addresses.
import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { type Cidr, contains, type IpAddress, likePatterns, parseHost } from "../../../domain/cidr-math.ts";
import { type Db, queryRows } from "../../../db/database.ts";
import {
  computeUnits,
  hardware,
  ipAddresses,
  networkHardwareMembers,
  networkMembers,
  networks,
  services,
} from "../../../db/schema/index.ts";

export interface AddressUse {
  type:
    | "ipam"
    | "hardware"
    | "compute_unit"
    | "service"
    | "service_port"
    | "network_member"
    | "network_hardware_member"
    | "network_gateway";
  id: number;
  name: string | null;
  ip_address: string;
  network_id: number | null;
  /** The IPAM status for `ipam` rows (a `free` record does not use its address); null otherwise. */
  status: string | null;
}

/** The uses whose address lies in `range` (an address is a /32 or /128 range), in one statement. */
export async function addressUses(db: Db, range: Cidr): Promise<(AddressUse & { ip: IpAddress })[]> {
  const patterns = likePatterns(range);
  const like = (col: AnyColumn | SQL) =>
    sql`(${sql.join(
      patterns.map((p) => sql`lower(${col}) like ${p}`),
      sql` or `,
    )})`;
  const portIp = sql`p.value->>'ip'`;
  const rows = await queryRows<AddressUse>(
    db,
    sql`
    select 'ipam' as type, ${ipAddresses.id} as id, ${ipAddresses.hostname} as name, ${ipAddresses.address} as ip_address, ${ipAddresses.network_id} as network_id, ${ipAddresses.status} as status
      from ${ipAddresses} where ${like(ipAddresses.address)}
    union all select 'hardware', ${hardware.id}, ${hardware.name}, ${hardware.ip_address}, null, null from ${hardware} where ${like(hardware.ip_address)}
    union all select 'compute_unit', ${computeUnits.id}, ${computeUnits.name}, ${computeUnits.ip_address}, null, null from ${computeUnits} where ${like(computeUnits.ip_address)}
    union all select 'service', ${services.id}, ${services.name}, ${services.ip_address}, null, null from ${services} where ${like(services.ip_address)}
    union all select 'service_port', ${services.id}, ${services.name}, ${portIp}, null, null
      from ${services} cross join lateral jsonb_array_elements(case when jsonb_typeof(${services.ports}) = 'array' then ${services.ports} else '[]'::jsonb end) p
      where ${like(portIp)}
    union all select 'network_member', m.compute_id, c.name, m.ip_address, m.network_id, null
      from ${networkMembers} m join ${computeUnits} c on c.id = m.compute_id where ${like(sql`m.ip_address`)}
    union all select 'network_hardware_member', m.hardware_id, h.name, m.ip_address, m.network_id, null
      from ${networkHardwareMembers} m join ${hardware} h on h.id = m.hardware_id where ${like(sql`m.ip_address`)}
    union all select 'network_gateway', ${networks.id}, ${networks.name}, ${networks.gateway}, ${networks.id}, null from ${networks} where ${like(networks.gateway)}`,
  );
  const out: (AddressUse & { ip: IpAddress })[] = [];
  for (const r of rows) {
    const ip = parseHost(r.ip_address);
    if (ip && contains(range, ip)) out.push({ ...r, ip });
  }
  return out;
}
