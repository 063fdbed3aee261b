// [admin-audit] request and response shapes of the administrator's audit-chain repair and recent-changes
// read. The audit entry and page shapes themselves are those of GET /logs (logs.ts).
import * as v from "valibot";
import { Limit, Offset } from "./list-query.ts";

export const RecentChangesQuery = v.object({ limit: Limit, offset: Offset });

export const RepairBody = v.object({
  authorization: v.literal("REPAIR_AUDIT_CHAIN", 'authorization must be exactly "REPAIR_AUDIT_CHAIN".'),
  reason: v.pipe(v.string(), v.trim(), v.minLength(12, "Give a reason of at least 12 characters."), v.maxLength(500)),
});

/** The repair's answer around a chain verification (its shape given by the caller, from the logs schemas). */
export const repairResult = <S extends v.GenericSchema>(verification: S) =>
  v.object({ repaired_count: v.number(), first_repaired_id: v.nullable(v.number()), verification });
