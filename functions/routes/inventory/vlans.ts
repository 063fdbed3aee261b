// [vlans] /vlans, /vlans/{vlan_pk} (GET, PATCH, DELETE). vlan_pk is the record's id; vlan_id is the tag.
import type { Hono } from "hono";
import { vlans } from "../../../shared/db/schema/index.ts";
import { Vlan, VlanCreate, VlanListQuery, VlanPatch } from "../../../shared/schemas/vlans.ts";
import { eqFilter } from "../../../shared/services/inventory/filters.ts";
import { resourceVerbs } from "../../../shared/services/inventory/resource.ts";
import { vlanDef } from "../../../shared/services/inventory/vlans/def.ts";
import type { AppEnv } from "../../deps.ts";
import { resourceRoutes } from "./resource-routes.ts";

export const vlanVerbs = resourceVerbs(vlanDef);

export function vlanRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: vlanVerbs, tag: "vlans", basePath: "/api/v1/vlans", idParam: "vlan_pk", noun: ["VLAN", "VLANs"],
    item: Vlan, create: VlanCreate, patch: VlanPatch, query: VlanListQuery,
    filters: (q) => [eqFilter(vlans.site_id, q.site_id), eqFilter(vlans.vlan_id, q.vlan_id)],
    writeDescription: "vlan_id is the 802.1Q tag (1-4094), unique per site (409 naming the record that has it).",
    deleteDescription: "Networks carry the tag as a number, not a reference: deleting a VLAN record changes no network.",
  });
}
