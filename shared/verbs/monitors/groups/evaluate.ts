// Re-evaluating groups after a change the recording path does not see (a member created, moved, paused,
// resumed or deleted; a group's rule changed or the group resumed), through the same recording path as a
// member's result (docs/adr/0440), in the caller's transaction.
import { recordMonitorResults } from "../run/record-results.ts";
import type { VerbScope } from "../../verb.ts";
import { groupResults } from "./results.ts";

export async function evaluateGroups(s: VerbScope, groupIds: readonly (number | null | undefined)[]): Promise<void> {
  const ids = [...new Set(groupIds.filter((id): id is number => id != null))].sort((a, b) => a - b);
  const results = await groupResults(s, ids, 1);
  if (results.length) await recordMonitorResults(s, results);
}
