// The runner's claim: up to `limit` enabled monitors whose check is due, taken with FOR UPDATE SKIP
// LOCKED and moved to their next due time in the same short statement. Several sidecars claiming at
// once each get different monitors, and a claimed check is not due again until its next interval, so
// no check runs twice; a sidecar that dies after claiming loses only those checks (due again next
// interval). The schedule keeps its rate: the next due time is one interval after this one, or one
// interval from now when the runner fell so far behind that it has passed already. Only probe types are
// claimed: push and group monitors have no executor (docs/adr/0434).
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { PROBE_CHECK_TYPES, type ProbeCheckType } from "../../../domain/monitors/check-types.ts";
import { defineVerb } from "../../verb.ts";
import { WRITE_MONITORS } from "../scopes.ts";

export interface ClaimedCheck {
  id: number;
  check_type: ProbeCheckType;
  host: string;
  config: Record<string, unknown>;
  secret_config: string | null;
  probe_agent_id: number | null;
  /** Multi-vantage monitors (docs/adr/0441): the agents that run it too, and whether the sidecar does. */
  vantage_agent_ids: number[];
  vantage_sidecar: boolean;
  interval_secs: number;
  /** When the check was due (the lag is its start minus this). */
  due_at: Date;
}

export const claimDueChecks = defineVerb<{ owner: string; limit: number }, ClaimedCheck[]>(
  { scope: WRITE_MONITORS },
  async (s, { owner, limit }) => {
    const now = s.now.toISOString();
    const rows = await queryRows<Omit<ClaimedCheck, "due_at"> & { due_at: string | Date }>(
      s.tx,
      sql`
    with due as (
      select id, next_check_at from monitors
      where enabled and next_check_at <= ${now}::timestamptz
        and check_type in (${sql.join(
          PROBE_CHECK_TYPES.map((t) => sql`${t}`),
          sql`, `,
        )})
      order by next_check_at
      limit ${Math.max(1, Math.min(limit, 5000))}
      for update skip locked
    )
    update monitors m set
      next_check_at = case
        when due.next_check_at + make_interval(secs => m.interval_secs) > ${now}::timestamptz then due.next_check_at + make_interval(secs => m.interval_secs)
        else ${now}::timestamptz + make_interval(secs => m.interval_secs) end,
      claimed_by = ${owner}, claimed_at = ${now}::timestamptz
    from due where m.id = due.id
    returning m.id, m.check_type, m.host, m.config, m.secret_config, m.probe_agent_id, m.vantage_agent_ids, m.vantage_sidecar, m.interval_secs, due.next_check_at as due_at`,
    );
    return rows.map((r) => ({ ...r, due_at: new Date(r.due_at) })).sort((a, b) => a.due_at.getTime() - b.due_at.getTime());
  },
);
