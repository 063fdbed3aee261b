// Joining a group (a monitor's group_id, on create and PATCH; docs/adr/0440): the group must be a group
// monitor, not the monitor itself, and the monitor must not end up inside itself (422 naming the cycle,
// "group 5 -> 9 -> 5") nor nest groups deeper than MAX_GROUP_DEPTH. Membership changes take one advisory
// lock, so two concurrent changes cannot each see no cycle and together make one.
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { MAX_GROUP_DEPTH } from "../../../domain/monitors/group.ts";
import { ApiError } from "../../../errors.ts";
import type { VerbScope } from "../../verb.ts";

const refuse = (msg: string, type = "invalid") => ApiError.validation([{ loc: ["body", "group_id"], msg, type }]);
// Far beyond MAX_GROUP_DEPTH: only bounds the walks should the data ever hold a cycle.
const WALK_LIMIT = 64;

/** `monitorId` (null while creating) may join `groupId`. */
export async function checkMembership(s: VerbScope, monitorId: number | null, groupId: number): Promise<void> {
  await s.tx.execute(sql`select pg_advisory_xact_lock(hashtext('monitor-group-membership'))`);
  if (groupId === monitorId) throw refuse(`Monitor ${groupId} cannot be its own group.`);
  // The group and the groups above it, nearest first.
  const chain = await queryRows<{ id: number; check_type: string; name: string; group_id: number | null }>(
    s.tx,
    sql`with recursive up(id, check_type, name, group_id, depth) as (
          select id, check_type, name, group_id, 1 from monitors where id = ${groupId}
          union all
          select m.id, m.check_type, m.name, m.group_id, up.depth + 1 from monitors m join up on m.id = up.group_id
          where up.depth < ${WALK_LIMIT})
        select id, check_type, name, group_id from up order by depth`,
  );
  const group = chain[0];
  if (!group) throw refuse(`There is no monitor ${groupId}.`, "not_found");
  if (group.check_type !== "group") throw refuse(`Monitor ${groupId} (${group.name}) is a ${group.check_type} monitor, not a group.`);
  if (monitorId === null) return checkDepth(chain.length, 0);
  const at = chain.findIndex((g) => g.id === monitorId);
  if (at >= 0) {
    const cycle = [monitorId, ...chain.slice(0, at + 1).map((g) => g.id)];
    throw refuse(`Would make a cycle: group ${cycle.join(" -> ")}.`, "cycle");
  }
  // How many group levels hang below the monitor (0: it has no members).
  const [below] = await queryRows<{ height: number }>(
    s.tx,
    sql`with recursive down(id, depth) as (
          select id, 0 from monitors where id = ${monitorId}
          union all
          select m.id, down.depth + 1 from monitors m join down on m.group_id = down.id where down.depth < ${WALK_LIMIT})
        select max(depth)::int as height from down`,
  );
  checkDepth(chain.length, below?.height ?? 0);
}

function checkDepth(above: number, below: number): void {
  if (above + below > MAX_GROUP_DEPTH) throw refuse(`Groups would nest ${above + below} deep; at most ${MAX_GROUP_DEPTH}.`, "too_deep");
}
