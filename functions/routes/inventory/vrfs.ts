// [vrfs] /vrfs, /vrfs/{vrf_id} (GET, PATCH, DELETE): routing tables the prefixes live in.
import type { Hono } from "hono";
import { Vrf, VrfCreate, VrfListQuery, VrfPatch } from "../../../shared/schemas/vrfs.ts";
import { vrfVerbs } from "../../../shared/verbs/inventory/vrfs/def.ts";
import type { AppEnv } from "../../deps.ts";
import { resourceRoutes } from "./resource-routes.ts";

export function vrfRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: vrfVerbs,
    tag: "vrfs",
    basePath: "/api/v1/vrfs",
    idParam: "vrf_id",
    noun: ["VRF", "VRFs"],
    bulk: { tags: true },
    item: Vrf,
    create: VrfCreate,
    patch: VrfPatch,
    query: VrfListQuery,
    writeDescription:
      "name and rd (route distinguisher, ASN:number or IPv4:number) are each unique (409 naming the holder). enforce_unique (default true) refuses a second prefix with the same network in the VRF; turning it on while duplicates exist is a 409 naming them.",
    deleteDescription: "A VRF that still holds prefixes cannot be deleted (409 listing them).",
  });
}
