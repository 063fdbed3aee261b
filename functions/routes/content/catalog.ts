// [catalog] The shipped vendor and device catalogue: vendors, a vendor's devices, and search.
import type { Hono } from "hono";
import {
  CatalogDevices,
  CatalogSearchQuery,
  CatalogSearchResult,
  CatalogVendors,
  VendorKeyParam,
} from "../../../shared/schemas/catalog.ts";
import { listVendors, searchCatalog, vendorDevices } from "../../../shared/verbs/catalog/catalog.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const tag = "catalog" as const;
export function catalogRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/catalog/vendors",
      tag,
      scope: listVendors.scope,
      summary: "Vendors in the device catalogue",
      response: { schema: CatalogVendors },
    },
    async (c, { reply }) => reply(await listVendors({ ctx: verbContext(c) })),
  );
  route(
    app,
    {
      method: "get",
      path: "/api/v1/catalog/vendors/:vendor_key/devices",
      tag,
      scope: vendorDevices.scope,
      params: VendorKeyParam,
      summary: "A vendor's device models (type, rack units, typical memory and CPU)",
      response: { schema: CatalogDevices },
    },
    async (c, { params, reply }) => reply(await vendorDevices({ ctx: verbContext(c), input: { vendorKey: params.vendor_key } })),
  );
  route(
    app,
    {
      method: "get",
      path: "/api/v1/catalog/search",
      tag,
      scope: searchCatalog.scope,
      query: CatalogSearchQuery,
      summary: "Search vendors and devices (case-insensitive, by name, key, type or CPU)",
      response: { schema: CatalogSearchResult },
    },
    async (c, { query, reply }) => reply(await searchCatalog({ ctx: verbContext(c), input: { q: query.q } })),
  );
}
