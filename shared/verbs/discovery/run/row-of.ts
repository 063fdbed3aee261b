// A scan_jobs row read with raw SQL (`returning j.*`) in the shape drizzle selects: timestamps as Dates.
import type { ScanJobRow } from "./job-events.ts";

const DATES = ["started_at", "completed_at", "claimed_at", "dispatched_at", "created_at", "updated_at"] as const;

export function rowOf(raw: Record<string, unknown>): ScanJobRow {
  const row = { ...raw } as Record<string, unknown>;
  for (const k of DATES) if (row[k] != null && !(row[k] instanceof Date)) row[k] = new Date(row[k] as string);
  return row as unknown as ScanJobRow;
}
