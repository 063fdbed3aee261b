// The free child prefixes of a prefix: GET lists the first few blocks of length N that no prefix of the
// same VRF overlaps; POST allocates the first one as a new prefix. The allocation locks the parent row
// and the VRF (the same advisory lock every prefix write takes), so two concurrent allocations are
// served one after the other and never get the same block.
import { type Cidr, formatCidr } from "../../../domain/cidr-math.ts";
import { bitsOf, freeBlocks } from "../../../domain/prefix-space.ts";
import type { Db } from "../../../db/database.ts";
import { ApiError } from "../../../errors.ts";
import type { PrefixStatus } from "../../../domain/prefix-statuses.ts";
import { insertRow } from "../../resources/update-row.ts";
import { versionOf } from "../../resources/update-row.ts";
import { defineRead, defineVerb } from "../../verb.ts";
import { lockVrf, prefixDef } from "./def.ts";
import { loadPrefix } from "./load.ts";
import { cidrOf, descendantsOf } from "./tree.ts";

/** 422 on `where.length` unless `length` is longer than the parent's and within the family. */
function checkLength(parent: Cidr, length: number, where: "query" | "body"): void {
  const max = bitsOf(parent);
  if (length > parent.prefix && length <= max) return;
  throw ApiError.validation([
    {
      loc: [where, "length"],
      msg: `A child of ${formatCidr(parent)} has a length from /${parent.prefix + 1} to /${max}; /${length} is outside.`,
      type: "value_error",
    },
  ]);
}

async function blocks(db: Db, row: { prefix: string; vrf_id: number | null }, length: number, max: number, where: "query" | "body") {
  const parent = cidrOf(row.prefix);
  checkLength(parent, length, where);
  return freeBlocks(parent, await descendantsOf(db, row), length, max);
}

export const availablePrefixes = defineRead(
  { scope: "read:networks" },
  async (ctx, { prefixId, length, limit }: { prefixId: number; length: number; limit: number }) => {
    const row = await loadPrefix(ctx.db, prefixId);
    const found = await blocks(ctx.db, row, length, limit, "query");
    return { parent_id: row.id, length, items: found.map((c) => ({ prefix: formatCidr(c), vrf_id: row.vrf_id })) };
  },
);

export interface Allocation {
  prefixId: number;
  length: number;
  status?: PrefixStatus | undefined;
  description?: string | null | undefined;
  site_id?: number | null | undefined;
  vlan_id?: number | null | undefined;
  tags?: string[] | undefined;
}

export const allocatePrefix = defineVerb({ scope: "write:networks" }, async (s, { prefixId, length, ...rest }: Allocation) => {
  const parent = await loadPrefix(s.tx, prefixId, { lock: true });
  await lockVrf(s, parent.vrf_id);
  const [free] = await blocks(s.tx, parent, length, 1, "body");
  if (!free) throw ApiError.conflict(`Prefix ${parent.id} (${parent.prefix}) has no free /${length} left.`);
  const row = await insertRow(s, prefixDef, {
    prefix: formatCidr(free),
    vrf_id: parent.vrf_id,
    status: rest.status ?? "active",
    site_id: rest.site_id === undefined ? parent.site_id : rest.site_id,
    vlan_id: rest.vlan_id ?? null,
    description: rest.description ?? null,
    tags: rest.tags ?? [],
  });
  return { item: (await prefixDef.present(s.tx, [row]))[0]!, version: versionOf(prefixDef, row) };
});
