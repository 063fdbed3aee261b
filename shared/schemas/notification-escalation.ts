// Request and answer shapes of /notifications/escalation-policies* (docs/adr/0448-escalation-policies.md)
// and of a route's quiet hours (docs/adr/0450-quiet-hours-and-digests.md).
import * as v from "valibot";
import { knownZone, TIME_PATTERN, WEEKDAYS } from "../domain/notifications/quiet-hours.ts";
import { Name, patchBody, Ref, writeBody } from "./fields.ts";
import { listQuery, listResponse } from "./list-query.ts";

/** At most this many passes after the first: a sequence paging forever is what re-notification is for. */
export const MAX_REPEAT = 10;
export const MAX_STEPS = 10;
/** A week: an escalation step later than that has stopped being an escalation. */
const MAX_MINUTES = 7 * 24 * 60;

const Minutes = (min: number) =>
  v.pipe(v.number(), v.integer("Must be a whole number of minutes."), v.minValue(min, `Must be at least ${min}.`), v.maxValue(MAX_MINUTES));

const Step = v.object({
  after_minutes: Minutes(0),
  sink_ids: v.pipe(v.array(Ref), v.minLength(1, "A step must notify at least one sink."), v.maxLength(20)),
});

const Steps = v.pipe(v.array(Step), v.minLength(1, "A policy needs at least one step."), v.maxLength(MAX_STEPS));
const Repeat = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_REPEAT, `Must be at most ${MAX_REPEAT}.`));
const Renotify = v.nullable(Minutes(1));

export const EscalationPolicyBody = writeBody({
  name: Name,
  steps: Steps,
  repeat: v.optional(Repeat, 0),
  renotify_every_minutes: v.optional(Renotify, null),
});
export type EscalationPolicyCreate = v.InferOutput<typeof EscalationPolicyBody>;

export const EscalationPolicyPatchBody = patchBody({ name: Name, steps: Steps, repeat: Repeat, renotify_every_minutes: Renotify });
export type EscalationPolicyPatch = v.InferOutput<typeof EscalationPolicyPatchBody>;

export const EscalationPolicyOut = v.object({
  id: v.number(),
  name: v.string(),
  steps: v.array(v.object({ after_minutes: v.number(), sink_ids: v.array(v.number()) })),
  repeat: v.number(),
  renotify_every_minutes: v.nullable(v.number()),
  /** The routes that name it. */
  route_ids: v.array(v.number()),
  created_at: v.string(),
  updated_at: v.string(),
});
export type EscalationPolicyShape = v.InferInput<typeof EscalationPolicyOut>;

export const ESCALATION_POLICY_SORTS = ["name", "id", "created_at"] as const;
export const EscalationPolicyListQuery = listQuery(ESCALATION_POLICY_SORTS, {}, "name");
export const EscalationPolicyList = listResponse(EscalationPolicyOut);

const Time = v.pipe(v.string(), v.regex(TIME_PATTERN, 'Must be a time "HH:MM" (00:00 to 23:59, or 24:00 for an end).'));

export const QuietHoursBody = v.object({
  timezone: v.pipe(
    v.string(),
    v.maxLength(64),
    v.check(knownZone, "Must be an IANA time zone such as Europe/Berlin (GET /timezones lists them)."),
  ),
  windows: v.pipe(
    v.array(
      v.pipe(
        v.object({
          days: v.pipe(
            v.array(v.picklist(WEEKDAYS, `Must be one of: ${WEEKDAYS.join(", ")}.`)),
            v.minLength(1, "Name at least one day."),
            v.maxLength(7),
          ),
          start: v.pipe(
            Time,
            v.check((t) => t !== "24:00", "A window starts at 23:59 at the latest."),
          ),
          end: Time,
        }),
        v.forward(
          v.check((w) => w.start !== w.end, "A window must not end where it starts."),
          ["end"],
        ),
      ),
    ),
    v.minLength(1, "Name at least one window."),
    v.maxLength(14),
  ),
  hold_below: v.picklist(["warning", "critical"], 'Must be "warning" or "critical" (critical alerts always pass).'),
});
export type QuietHoursInput = v.InferOutput<typeof QuietHoursBody>;
