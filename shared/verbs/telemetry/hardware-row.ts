// The hardware node a telemetry verb works on: 404 when it does not exist. `forUpdate` serialises
// writers of one node's status (pushes and polls) so transitions apply in order.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { hardware } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";

export interface HardwareStatusRow {
  id: number;
  name: string;
  status: string;
  status_changed_at: Date | null;
}

export async function requireHardwareRow(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<HardwareStatusRow> {
  const query = db
    .select({ id: hardware.id, name: hardware.name, status: hardware.status, status_changed_at: hardware.status_changed_at })
    .from(hardware)
    .where(eq(hardware.id, id));
  const [row] = opts.forUpdate ? await query.for("update") : await query;
  if (!row) throw ApiError.notFound("Hardware node", id);
  return row;
}
