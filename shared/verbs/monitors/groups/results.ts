// A group's evaluation as a result for the recording path (run/record-results.ts), which records it as it
// records a check's: the state machine (group.ts's decideGroup), events, alerts, samples, uptime buckets
// and live events (docs/adr/0440). The recording path asks here, after it wrote its results, which
// groups its monitors move: those whose member changed status, and those not evaluated for an interval
// (so a group's history and uptime fill at its interval while its members report). Each level up the
// chain is one more call of the recording path, bounded by MAX_GROUP_DEPTH.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/database.ts";
import { type GroupJudgement, judgeGroup, MAX_GROUP_DEPTH, type MemberTally, standingOf } from "../../../domain/monitors/group.ts";
import type { VerbScope } from "../../verb.ts";

/** A group's evaluation, shaped as the recording path's MonitorResult. */
export interface GroupResult {
  monitor_id: number;
  checked_at: string;
  up: boolean;
  latency_ms: null;
  samples: [];
  msg: string;
  source: "server";
  /** The verdict the recording path applies (decideGroup), and how far up the chain it is. */
  group: GroupJudgement & { depth: number };
}

const intArray = (ids: readonly number[]) => sql`${`{${ids.join(",")}}`}::int[]`;

/** The tallies of each group's members by standing (paused, in maintenance, up, down, pending). */
export async function memberTallies(db: Db, groupIds: readonly number[]): Promise<Map<number, MemberTally[]>> {
  const rows = await queryRows<{ group_id: number; enabled: boolean; status: string; n: number; first: { id: number; name: string }[] }>(
    db,
    sql`select group_id, enabled, status, count(*)::int as n,
          jsonb_path_query_array(jsonb_agg(jsonb_build_object('id', id, 'name', name) order by lower(name), id), '$[0 to 4]') as first
        from monitors where group_id = any(${intArray(groupIds)}) group by group_id, enabled, status`,
  );
  const out = new Map<number, MemberTally[]>();
  for (const r of rows) {
    const standing = standingOf(r);
    const list = out.get(r.group_id) ?? [];
    const same = list.find((t) => t.standing === standing);
    if (same) {
      same.n += r.n;
      same.first = [...same.first, ...r.first].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id).slice(0, 5);
    } else list.push({ standing, n: r.n, first: r.first });
    out.set(r.group_id, list);
  }
  return out;
}

/** The enabled groups among `groupIds` judged by their members now, `depth` levels up from a recorded result. */
export async function groupResults(s: VerbScope, groupIds: readonly number[], depth: number): Promise<GroupResult[]> {
  if (groupIds.length === 0 || depth > MAX_GROUP_DEPTH) return [];
  const groups = await queryRows<{ id: number; config: Record<string, unknown> }>(
    s.tx,
    sql`select id, config from monitors where id = any(${intArray(groupIds)}) and check_type = 'group' and enabled order by id`,
  );
  if (groups.length === 0) return [];
  const tallies = await memberTallies(
    s.tx,
    groups.map((g) => g.id),
  );
  return groups.map((g) => {
    const judged = judgeGroup(g.config, tallies.get(g.id) ?? []);
    return {
      monitor_id: g.id,
      checked_at: s.now.toISOString(),
      up: judged.verdict === "up",
      latency_ms: null,
      samples: [],
      msg: judged.msg,
      source: "server",
      group: { ...judged, depth },
    };
  });
}

/**
 * The groups that recorded results move: the group of each monitor whose status changed, and of each
 * monitor that recorded while its group was last evaluated an interval ago or more.
 */
export async function groupsToFollow(
  s: VerbScope,
  recorded: readonly { monitor_id: number; group?: { depth: number } | undefined }[],
  changed: readonly number[],
): Promise<GroupResult[]> {
  if (recorded.length === 0) return [];
  const depth = Math.max(...recorded.map((r) => r.group?.depth ?? 0)) + 1;
  if (depth > MAX_GROUP_DEPTH) return [];
  const ids = [...new Set(recorded.map((r) => r.monitor_id))];
  const due = await queryRows<{ id: number }>(
    s.tx,
    sql`select distinct g.id from monitors c join monitors g on g.id = c.group_id
        where c.id = any(${intArray(ids)}) and g.enabled
          and (c.id = any(${intArray(changed)}) or g.last_polled_at is null
               or g.last_polled_at <= ${s.now.toISOString()}::timestamptz - make_interval(secs => g.interval_secs))`,
  );
  return groupResults(
    s,
    due.map((g) => g.id),
    depth,
  );
}
