// VRFs: a routing table's name and optional route distinguisher; whether it refuses duplicate prefixes.
import * as v from "valibot";
import { Name, OptionalText, patchBody, Tags, writeBody } from "./fields.ts";
import { listQuery, TextFilter } from "./list-query.ts";

/** ASN:number or IPv4:number (RFC 4364), e.g. 65000:1 or 192.0.2.1:7. "" clears it. */
const Rd = v.optional(
  v.nullable(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(32),
      v.check(
        (s) => s === "" || /^(\d{1,10}|\d{1,3}(\.\d{1,3}){3}):\d{1,10}$/.test(s),
        "A route distinguisher is ASN:number or IPv4:number (e.g. 65000:1).",
      ),
      v.transform((s) => (s === "" ? null : s)),
    ),
  ),
);

const writable = {
  name: Name,
  rd: Rd,
  description: OptionalText(2000),
  enforce_unique: v.optional(v.boolean()),
  tags: Tags,
};
const readOnly = ["prefix_count"];

export const VrfCreate = writeBody(writable, readOnly);
export const VrfPatch = patchBody(writable, readOnly);

export const Vrf = v.object({
  id: v.number(),
  name: v.string(),
  rd: v.nullable(v.string()),
  description: v.nullable(v.string()),
  enforce_unique: v.boolean(),
  prefix_count: v.number(),
  tags: v.array(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
});

export const VrfListQuery = listQuery(["name", "rd", "created_at", "updated_at"], { tag: TextFilter });
