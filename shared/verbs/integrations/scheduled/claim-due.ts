// The scheduled sync's claim: enabled monitoring integrations and auto-sync provider configs whose
// next_sync_at has passed, taken with FOR UPDATE SKIP LOCKED and moved one sync_interval_s ahead in the
// same statement. A null next_sync_at is "not scheduled": the writers set it to now on create (the first
// sync) and to null where nothing is to be scheduled (disabled, auto_sync off, the native integration
// after its sync, which follows our own monitors rather than a clock). Two sidecars claiming at once get different rows, and a
// claimed row is not due again before its interval, so no integration is synced twice; a sidecar that dies
// after claiming only delays that row to its next interval.
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { defineVerb } from "../../verb.ts";
import { WRITE_INTEGRATIONS } from "../scopes.ts";

/** `monitoring`: a row of integrations (uptime_kuma, native); `hv` / `docker`: a row of integration_configs. */
export type DueKind = "monitoring" | "hv" | "docker";

export interface DueSync {
  kind: DueKind;
  id: number;
  name: string;
}

export const claimDueSyncs = defineVerb<{ limit: number }, DueSync[]>({ scope: WRITE_INTEGRATIONS }, async (s, { limit }) => {
  const now = s.now.toISOString();
  const take = Math.max(1, Math.min(limit, 100));
  const monitoring = await queryRows<{ id: number; name: string }>(
    s.tx,
    sql`
    with due as (
      select id from integrations
      where enabled and next_sync_at <= ${now}::timestamptz
      order by next_sync_at, id
      limit ${take}
      for update skip locked
    )
    update integrations i set next_sync_at = ${now}::timestamptz + make_interval(secs => i.sync_interval_s)
    from due where i.id = due.id
    returning i.id, i.name`,
  );
  const room = take - monitoring.length;
  const providers =
    room <= 0
      ? []
      : await queryRows<{ id: number; name: string; type: "hv" | "docker" }>(
          s.tx,
          sql`
    with due as (
      select id from integration_configs
      where auto_sync and type in ('hv', 'docker') and next_sync_at <= ${now}::timestamptz
      order by next_sync_at, id
      limit ${room}
      for update skip locked
    )
    update integration_configs c set next_sync_at = ${now}::timestamptz + make_interval(secs => c.sync_interval_s)
    from due where c.id = due.id
    returning c.id, c.name, c.type`,
        );
  return [
    ...monitoring.map((r) => ({ kind: "monitoring" as const, id: r.id, name: r.name })),
    ...providers.map((r) => ({ kind: r.type, id: r.id, name: r.name })),
  ];
});
