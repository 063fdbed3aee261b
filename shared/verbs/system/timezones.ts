// GET /timezones: every IANA zone this runtime knows (Intl.supportedValuesOf, plus UTC, which it leaves
// out) with its UTC offset at this moment, so a picker can show "Europe/Berlin (+02:00)".
import { defineRead } from "../verb.ts";
import { requireSignedIn } from "./signed-in.ts";

let formatters: [string, Intl.DateTimeFormat][] | undefined;

// Building ~420 formatters costs ~150 ms; they hold no I/O, so one set per process (or isolate) serves all.
function zoneFormatters(): [string, Intl.DateTimeFormat][] {
  formatters ??= ["UTC", ...Intl.supportedValuesOf("timeZone")].map((zone) => [
    zone,
    new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }),
  ]);
  return formatters;
}

/** "GMT+05:30" -> ["+05:30", 330]; plain "GMT" -> ["+00:00", 0]. */
function offsetOf(label: string): [string, number] {
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(label);
  if (!m) return ["+00:00", 0];
  const minutes = (Number(m[2]) * 60 + Number(m[3])) * (m[1] === "-" ? -1 : 1);
  return [`${m[1]}${m[2]}:${m[3]}`, minutes];
}

export const listTimezones = defineRead({ scope: requireSignedIn }, async (ctx) => {
  const now = ctx.clock.now();
  return zoneFormatters().map(([name, format]) => {
    const [utc_offset, offset_minutes] = offsetOf(format.formatToParts(now).find((p) => p.type === "timeZoneName")?.value ?? "GMT");
    return { name, utc_offset, offset_minutes };
  });
});
