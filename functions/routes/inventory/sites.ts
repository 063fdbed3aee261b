// [sites] /sites, /sites/{site_id} (GET, PATCH, DELETE).
import type { Hono } from "hono";
import { Site, SiteCreate, SiteListQuery, SitePatch } from "../../../shared/schemas/sites.ts";
import { siteVerbs } from "../../../shared/verbs/inventory/sites/def.ts";
import type { AppEnv } from "../../deps.ts";
import { resourceRoutes } from "./resource-routes.ts";

export function siteRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: siteVerbs,
    tag: "sites",
    basePath: "/api/v1/sites",
    idParam: "site_id",
    noun: ["site", "sites"],
    bulk: { tags: false },
    item: Site,
    create: SiteCreate,
    patch: SitePatch,
    query: SiteListQuery,
    writeDescription:
      "Sites have their own scope, write:sites, which no built-in role but admin (write:*) holds: editors read sites but do not change them; grant write:sites to a custom role or token to delegate. name is unique (409); latitude -90..90, longitude -180..180.",
    deleteDescription:
      "Detaches what was at the site (hardware, networks and VLANs keep existing with site_id null); 409 naming its racks while it has any, and when one of its VLANs would then share its tag with a VLAN that has no site.",
  });
}
