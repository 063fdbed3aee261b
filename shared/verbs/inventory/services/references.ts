// A service's references: each given id must exist (422 naming the field), and a compute unit and a
// hardware node given together must agree (the compute unit runs on that hardware), else 422 on compute_id.
import { eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../../db/database.ts";
import { categories, computeUnits, environments, hardware } from "../../../db/schema/index.ts";
import { ApiError, type ValidationIssue } from "../../../errors.ts";

interface Target {
  table: PgTable;
  id: PgColumn;
  label: string;
}

const TARGETS: Record<string, Target> = {
  environment_id: { table: environments, id: environments.id, label: "Environment" },
  hardware_id: { table: hardware, id: hardware.id, label: "Hardware node" },
  category_id: { table: categories, id: categories.id, label: "Category" },
};

export function missingReference(field: string, label: string, id: number): ValidationIssue {
  return { loc: ["body", field], msg: `${label} ${id} was not found.`, type: "foreign_key" };
}

const idOf = (value: unknown): number | null => (typeof value === "number" ? value : null);

/** `service` is the service after the write (given values over stored ones); `given` the fields written. */
export async function checkServiceReferences(tx: Db, service: Record<string, unknown>, given: ReadonlySet<string>): Promise<void> {
  const issues: ValidationIssue[] = [];
  const refs = { hardware_id: idOf(service.hardware_id), compute_id: idOf(service.compute_id) };
  for (const [field, target] of Object.entries(TARGETS)) {
    const id = idOf(service[field]);
    if (!given.has(field) || id === null) continue;
    const [row] = await tx.select({ id: target.id }).from(target.table).where(eq(target.id, id));
    if (!row) issues.push(missingReference(field, target.label, id));
  }
  if (refs.compute_id != null && (given.has("compute_id") || given.has("hardware_id"))) {
    const [cu] = await tx
      .select({ id: computeUnits.id, name: computeUnits.name, hardware_id: computeUnits.hardware_id })
      .from(computeUnits)
      .where(eq(computeUnits.id, refs.compute_id));
    if (!cu) issues.push(missingReference("compute_id", "Compute unit", refs.compute_id));
    else if (refs.hardware_id != null && cu.hardware_id != null && cu.hardware_id !== refs.hardware_id)
      issues.push({
        loc: ["body", "compute_id"],
        msg: `Compute unit ${cu.id} (${cu.name}) runs on hardware node ${cu.hardware_id}, not on hardware node ${refs.hardware_id}.`,
        type: "value_error",
      });
  }
  if (issues.length > 0) throw ApiError.validation(issues);
}
