// The vendor and device catalogue (shared/data/device-catalog.json), shipped with the code and imported
// statically so the edge bundle carries it too. Read-only: any signed-in user with read:hardware.
import data from "../../data/device-catalog.json" with { type: "json" };
import { ApiError } from "../../errors.ts";
import { defineRead } from "../verb.ts";

export const DEVICE_TYPES = ["server", "switch", "router", "nas", "sbc", "mini-pc", "firewall", "ap"] as const;

export interface CatalogDevice {
  key: string;
  name: string;
  type: (typeof DEVICE_TYPES)[number];
  u_height: number | null;
  memory_gb: number | null;
  cpu: string | null;
}
export interface CatalogVendor {
  key: string;
  name: string;
  website: string;
  devices: CatalogDevice[];
}

export const VENDORS = (data as { vendors: CatalogVendor[] }).vendors;

const vendorView = (v: CatalogVendor) => ({ key: v.key, name: v.name, website: v.website, device_count: v.devices.length });
const deviceView = (v: CatalogVendor, d: CatalogDevice) => ({ ...d, vendor_key: v.key, vendor_name: v.name });

/** The catalogue describes hardware, so reading it takes the hardware read scope. */
const CATALOG_READ = { scope: "read:hardware" };

export const listVendors = defineRead(CATALOG_READ, async () => VENDORS.map(vendorView).sort((a, b) => a.name.localeCompare(b.name)));

export const vendorDevices = defineRead(CATALOG_READ, async (_ctx, { vendorKey }: { vendorKey: string }) => {
  const vendor = VENDORS.find((v) => v.key === vendorKey.toLowerCase());
  if (!vendor) throw ApiError.notFound("Vendor", vendorKey);
  return vendor.devices.map((d) => deviceView(vendor, d));
});

/** Case-insensitive substring search over vendor keys and names, and device keys, names, types and CPUs. */
export const searchCatalog = defineRead(CATALOG_READ, async (_ctx, { q }: { q: string }) => {
  const needle = q.trim().toLowerCase();
  const hit = (...texts: (string | null)[]) => texts.some((t) => t?.toLowerCase().includes(needle));
  return {
    query: q,
    vendors: VENDORS.filter((v) => hit(v.key, v.name)).map(vendorView),
    devices: VENDORS.flatMap((v) =>
      v.devices.filter((d) => hit(d.key, d.name, d.type, d.cpu, `${v.name} ${d.name}`)).map((d) => deviceView(v, d)),
    ),
  };
});
