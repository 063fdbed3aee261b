// [catalog] request shapes of the device catalogue's reads: a vendor by its key, and the search text.
import * as v from "valibot";

export const VendorKeyParam = v.object({ vendor_key: v.pipe(v.string(), v.maxLength(100)) });
export const CatalogSearchQuery = v.object({ q: v.pipe(v.string(), v.trim(), v.minLength(1, "Give something to search for."), v.maxLength(100)) });
