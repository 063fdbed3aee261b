// The stored snapshots: the newest one, the ignores in force, and the decoded findings and checks.
import { asc, desc } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { privacyIgnores, privacySnapshots } from "../../db/schema/index.ts";
import type { Check, Finding, Ignore } from "./evaluate.ts";

export type SnapshotRow = typeof privacySnapshots.$inferSelect;

export async function latestSnapshot(db: Db): Promise<SnapshotRow | null> {
  const [row] = await db.select().from(privacySnapshots).orderBy(desc(privacySnapshots.taken_at), desc(privacySnapshots.id)).limit(1);
  return row ?? null;
}

export async function readIgnores(db: Db): Promise<Ignore[]> {
  return db
    .select({ rule_id: privacyIgnores.rule_id, hardware_id: privacyIgnores.hardware_id })
    .from(privacyIgnores)
    .orderBy(asc(privacyIgnores.rule_id), asc(privacyIgnores.hardware_id));
}

/** A snapshot's findings (stored in `deductions`, ignored ones included) and checks. */
export function storedAnalysis(row: SnapshotRow): { findings: Finding[]; checks: Check[] } {
  return { findings: (row.deductions as Finding[]) ?? [], checks: (row.checks as Check[]) ?? [] };
}
