// [intelligence] the path of GET /intel/blast-radius/{asset_type}/{asset_id}: the root asset's kind and id.
import * as v from "valibot";
import { ASSET_TYPES } from "../domain/blast-radius.ts";

export const BlastRadiusParams = v.object({
  asset_type: v.picklist(ASSET_TYPES, `asset_type is one of: ${ASSET_TYPES.join(", ")}.`),
  asset_id: v.pipe(v.string(), v.regex(/^\d{1,10}$/, "Must be a positive integer id."), v.transform(Number)),
});
