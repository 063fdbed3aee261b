// POST /agents/rollouts/{id}/resume: a rollout its failure threshold stopped goes on. The failures so far
// are acknowledged (the threshold counts those after the resume), the targets already failed stay failed
// (never re-sent), and the next wave is queued once the current one has no target left queued or started.
// 409 unless stopped; with If-Match a rollout changed since is a 412.
import { defineVerb } from "../../verb.ts";
import { ADMIN_AGENTS } from "../scopes.ts";
import { auditRollout, countFailures, stepRollout, touchRollout } from "./advance.ts";
import { lockForAction, type RolloutActionInput } from "./cancel-rollout.ts";
import { presentRollout, type RolloutReadShape } from "./present.ts";
import { requireRollout } from "./read-rollouts.ts";

export const resumeRollout = defineVerb<RolloutActionInput, RolloutReadShape>({ scope: ADMIN_AGENTS }, async (s, input) => {
  const row = await lockForAction(s.tx, input, ["stopped"], "be resumed");
  const failures_acknowledged = await countFailures(s.tx, row.id);
  await touchRollout(s, row.id, { state: "running", stop_reason: null, failures_acknowledged });
  auditRollout(s, "resumed", row, { failures_acknowledged, stop_reason: row.stop_reason });
  await stepRollout(s, { ...row, state: "running", stop_reason: null, failures_acknowledged });
  return presentRollout(s.tx, await requireRollout(s.tx, row.id));
});
