// The heartbeat (push) monitors' routes (docs/adr/0439): the push itself (GET or POST /push/{token},
// its fields from the query string or a JSON or form body, as Uptime Kuma's push clients send them),
// and the push token answered once by create and rotate.
import * as v from "valibot";
import { MonitorRead } from "./monitors.ts";

export const PUSH_MSG_MAX = 1000;

/** A query string or a form sends text; JSON may send a number. "" is "not given" (Kuma's default URL ends in `ping=`). */
const numeric = (integer: boolean, min: number, max: number, what: string) =>
  v.optional(
    v.pipe(
      v.union([v.number(), v.string()], `Must be ${what}.`),
      v.transform((x) => (typeof x === "string" ? (x.trim() === "" ? undefined : Number(x.trim())) : x)),
      v.check(
        (n) => n === undefined || (Number.isFinite(n) && (!integer || Number.isInteger(n)) && n >= min && n <= max),
        `Must be ${what}.`,
      ),
    ),
  );

export const PushFields = v.object({
  status: v.optional(
    v.pipe(
      v.picklist(["up", "down", ""], "Must be up or down."),
      v.description("up (the default) or down; a push saying down marks the monitor down at once."),
    ),
  ),
  msg: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(PUSH_MSG_MAX, `Must be at most ${PUSH_MSG_MAX} characters.`),
      v.description("A message kept with the result."),
    ),
  ),
  ping: v.pipe(
    numeric(false, 0, 86_400_000, "a number of milliseconds, 0 or more"),
    v.description("The job's own latency in ms, kept as the result's latency."),
  ),
  exit_code: v.pipe(
    numeric(true, -2_147_483_648, 2_147_483_647, "a whole number"),
    v.description("The job's exit code: anything but 0 means down, unless `status` is given."),
  ),
});
export type PushFieldsInput = v.InferOutput<typeof PushFields>;
export const PushBody = v.optional(PushFields);
export const PushParams = v.object({
  token: v.pipe(v.string(), v.description("The monitor's push token (shown once, at create or rotate).")),
});

export const PushAccepted = v.object({
  ok: v.literal(true),
  recorded: v.pipe(v.boolean(), v.description("false for a paused monitor: the push is accepted and nothing is recorded.")),
});

const PushTokenFields = {
  push_token: v.pipe(v.string(), v.description("The push token: shown this once, stored only as its SHA-256.")),
  push_url: v.pipe(v.string(), v.description("Where to push: GET or POST, optional status, msg, ping, exit_code.")),
};
export const PushTokenIssued = v.object({ monitor_id: v.number(), ...PushTokenFields });
/** The create answer: a MonitorRead, and for a push monitor its token and URL, this once. */
export const MonitorCreated = v.object({
  ...MonitorRead.entries,
  push_token: v.optional(PushTokenFields.push_token),
  push_url: v.optional(PushTokenFields.push_url),
});
