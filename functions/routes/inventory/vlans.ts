// [vlans] /vlans, /vlans/{vlan_pk} (GET, PATCH, DELETE). vlan_pk is the record's id; vlan_id is the tag.
import type { Hono } from "hono";
import { Vlan, VlanCreate, VlanListQuery, VlanPatch } from "../../../shared/schemas/vlans.ts";
import { vlanVerbs } from "../../../shared/verbs/inventory/vlans/def.ts";
import type { AppEnv } from "../../deps.ts";
import { resourceRoutes } from "./resource-routes.ts";

export function vlanRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: vlanVerbs,
    tag: "vlans",
    basePath: "/api/v1/vlans",
    idParam: "vlan_pk",
    noun: ["VLAN", "VLANs"],
    bulk: { tags: false },
    item: Vlan,
    create: VlanCreate,
    patch: VlanPatch,
    query: VlanListQuery,
    writeDescription: "vlan_id is the 802.1Q tag (1-4094), unique per site (409 naming the record that has it).",
    deleteDescription: "Networks carry the tag as a number, not a reference: deleting a VLAN record changes no network.",
  });
}
