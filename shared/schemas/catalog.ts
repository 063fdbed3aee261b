// [catalog] request and response shapes of the device catalogue's reads: a vendor by its key, the search text, vendors and devices.
import * as v from "valibot";

export const VendorKeyParam = v.object({ vendor_key: v.pipe(v.string(), v.maxLength(100)) });
export const CatalogSearchQuery = v.object({
  q: v.pipe(v.string(), v.trim(), v.minLength(1, "Give something to search for."), v.maxLength(100)),
});

export const CatalogVendor = v.object({ key: v.string(), name: v.string(), website: v.string(), device_count: v.number() });
export const CatalogVendors = v.array(CatalogVendor);
export const CatalogDevice = v.object({
  key: v.string(),
  name: v.string(),
  type: v.string(),
  u_height: v.nullable(v.number()),
  memory_gb: v.nullable(v.number()),
  cpu: v.nullable(v.string()),
  vendor_key: v.string(),
  vendor_name: v.string(),
});
export const CatalogDevices = v.array(CatalogDevice);
export const CatalogSearchResult = v.object({ query: v.string(), vendors: CatalogVendors, devices: CatalogDevices });
