// The valibot pieces the check types' config rules are built of (check-types.ts).
import * as v from "valibot";

/** A problem with a config, at its path inside the config (`["headers", "X-A"]`). */
export interface ConfigIssue {
  path: (string | number)[];
  msg: string;
  type: string;
}

export const timeoutField = (max: number) =>
  v.optional(
    v.pipe(v.number("Must be a number of seconds."), v.gtValue(0, "Must be above 0."), v.maxValue(max, `Must be at most ${max}.`)),
  );
export const WholeNumber = (min: number, max: number) =>
  v.pipe(v.number(), v.integer("Must be a whole number."), v.minValue(min), v.maxValue(max));
export const Port = v.pipe(
  v.number(),
  v.integer("Must be a whole number."),
  v.minValue(1, "Must be between 1 and 65535."),
  v.maxValue(65535, "Must be between 1 and 65535."),
);
export const NullableText = (max: number) =>
  v.optional(v.nullable(v.pipe(v.string(), v.maxLength(max, `Must be at most ${max} characters.`))));
export const oneOf = <const T extends readonly string[]>(values: T) => v.picklist(values, `Must be one of: ${values.join(", ")}.`);

/** "200", "200-299": three-digit statuses 100..599, a range low to high. */
const STATUS_RANGE = /^([1-5]\d\d)(?:-([1-5]\d\d))?$/;
export const StatusRange = v.pipe(
  v.string(),
  v.check((s) => {
    const m = STATUS_RANGE.exec(s);
    return m !== null && (m[2] === undefined || Number(m[1]) <= Number(m[2]));
  }, 'Must be a status such as "200" or a range such as "200-299".'),
);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
export const Headers = v.pipe(
  v.record(
    v.pipe(v.string(), v.regex(HEADER_NAME, "Must be an HTTP header name.")),
    v.pipe(v.string("Must be text."), v.maxLength(4000), v.regex(/^[^\r\n]*$/, "Must be one line.")),
  ),
  v.check((h) => Object.keys(h).length <= 50, "At most 50 headers."),
);
export const HttpUrl = v.pipe(
  v.string(),
  v.maxLength(2000),
  v.check((s) => {
    try {
      const u = new URL(s);
      return u.protocol === "http:" || u.protocol === "https:";
    } catch {
      return false;
    }
  }, "Must be an http(s) URL."),
);
export const DnsResolver = v.pipe(v.string(), v.maxLength(255), v.regex(/^[0-9A-Za-z.:_%-]+$/, "Must be a resolver address or host name."));
