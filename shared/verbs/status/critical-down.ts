// The status worker's rule (spec 3.2, 6.5): a hardware node offline for more than 5 minutes gets one
// critical DOWN event in its status history, whose metrics carry the blast-radius summary. The blast
// radius is best effort: when it cannot be computed the event is recorded without it. The status worker
// (sidecar/status/) runs it every 30 s as the system actor.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { statusHistory } from "../../db/schema/index.ts";
import { type BlastRadius, blastRadiusSummary } from "../../domain/blast-radius.ts";
import type { Logger } from "../../logger.ts";
import { computeBlastRadius } from "../intelligence/blast-radius.ts";
import { withTimeout } from "../../timeout.ts";
import { defineVerb } from "../verb.ts";

export const CRITICAL_DOWN_AFTER_MS = 5 * 60_000;
const BLAST_TIMEOUT_MS = 5000;
const WORKER_LOCK = "status_worker";

export interface CriticalDownInput {
  logger: Logger;
  /** Injected so a test can force a failure; production uses the real traversal. */
  blastRadius?: (db: Db, type: "hardware", id: number) => Promise<BlastRadius>;
}

/**
 * Records the critical DOWN events that are due; returns how many. Safe to run from several sidecars: a
 * round that finds another one's lock held does nothing. Status history is the monitoring half's record,
 * hence write:monitors (only the system actor calls it).
 */
export const recordCriticalDowns = defineVerb<CriticalDownInput, number>(
  { scope: "write:monitors" },
  async (s, { logger, blastRadius = computeBlastRadius }) => {
    const { tx, now } = s;
    const threshold = new Date(now.getTime() - CRITICAL_DOWN_AFTER_MS).toISOString();
    const [lock] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(hashtext(${WORKER_LOCK})) as ok`);
    if (!lock?.ok) return 0;
    const due = await queryRows<{ id: number; name: string; status_changed_at: Date | string }>(
      tx,
      sql`select h.id, h.name, h.status_changed_at from hardware h
        where h.status = 'down' and h.status_changed_at < ${threshold}::timestamptz
          and not exists (
            select 1 from status_history sh
            where sh.entity_type = 'hardware' and sh.entity_id = h.id and sh.severity = 'critical'
              and sh.status = 'down' and sh.created_at >= h.status_changed_at)
        order by h.id`,
    );
    for (const node of due) {
      const since = new Date(node.status_changed_at).toISOString();
      const metrics: Record<string, unknown> = { offline_since: since };
      try {
        metrics.blast_radius = blastRadiusSummary(await withTimeout(blastRadius(tx, "hardware", node.id), BLAST_TIMEOUT_MS));
      } catch (e) {
        // Best effort (spec 7.4.4): the event is recorded all the same.
        metrics.blast_radius_error = (e as Error).message;
        logger.warn("blast radius failed for a critical DOWN event", { hardware_id: node.id, error: (e as Error).message });
      }
      await tx.insert(statusHistory).values({
        entity_type: "hardware",
        entity_id: node.id,
        status: "down",
        previous_status: "down",
        severity: "critical",
        message: `${node.name} has been offline for more than 5 minutes (since ${since}).`,
        metrics,
        created_at: now,
      });
    }
    if (due.length > 0) s.emit("monitors", { event: "critical_down", hardware_ids: due.map((d) => d.id) });
    return due.length;
  },
);
