// A network as other verbs refer to it: its existence (404, or 422 when the id came from a body) and
// whether an address lies in its cidr.
import { eq } from "drizzle-orm";
import { contains, parseHost, parseNetwork } from "../../../domain/cidr-math.ts";
import type { Db } from "../../../db/database.ts";
import { networks } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";

/**
 * The network's id and cidr: 404 when missing, or 422 on `field` when the id came from a body. `lock`
 * holds off a concurrent cidr change while an address is checked against it.
 */
export async function loadNetwork(db: Db, id: number, { lock = false, field }: { lock?: boolean; field?: string } = {}) {
  const q = db.select({ id: networks.id, cidr: networks.cidr }).from(networks).where(eq(networks.id, id));
  const [row] = await (lock ? q.for("share") : q);
  if (row) return row;
  if (field) throw ApiError.validation([{ loc: ["body", field], msg: `Network ${id} was not found.`, type: "foreign_key" }]);
  throw ApiError.notFound("Network", id);
}

/** 422 on `field` when `ip` is outside the network's cidr. */
export function requireInside(network: { id: number; cidr: string | null }, ip: string | null | undefined, field: string): void {
  if (!ip || !network.cidr) return;
  const net = parseNetwork(network.cidr);
  const addr = parseHost(ip);
  if (net.ok && addr && !contains(net.value, addr))
    throw ApiError.validation([
      { loc: ["body", field], msg: `${ip} is outside network ${network.id}'s cidr ${network.cidr}.`, type: "value_error" },
    ]);
}
