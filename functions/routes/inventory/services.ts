// [services] /services, /services/{id} (GET, PATCH, DELETE), check-ip, dependencies, discovery, and the
// storage, misc and external-dependency links.
import type { Hono } from "hono";
import type * as v from "valibot";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  CheckIpBody,
  CheckIpResult,
  Dependency,
  DependencyCreate,
  DependencyQuery,
  ExternalDependencies,
  ExternalDependency,
  ExternalDependencyCreate,
  MiscLink,
  MiscLinkCreate,
  MiscLinks,
  RelatedServices,
  Service,
  ServiceCreate,
  ServiceDiscovery,
  ServiceListQuery,
  ServicePatch,
  StorageLink,
  StorageLinkCreate,
  StorageLinks,
} from "../../../shared/schemas/services.ts";
import { checkIp } from "../../../shared/verbs/inventory/services/check-ip.ts";
import { serviceVerbs } from "../../../shared/verbs/inventory/services/def.ts";
import { addDependency, listDependencies, removeDependency } from "../../../shared/verbs/inventory/services/dependencies.ts";
import { serviceDiscovery } from "../../../shared/verbs/inventory/services/discovery.ts";
import { externalDependencies, type LinkVerbs, miscLinks, storageLinks } from "../../../shared/verbs/inventory/services/links.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "./resource-routes.ts";

const BASE = "/api/v1/services";
const serviceParam = IdParam("service_id");

/** GET, POST and DELETE of one kind of link: /services/{service_id}/<segment>[/{key}]. */
function linkRoutes<B, I extends v.GenericSchema>(
  app: Hono<AppEnv>,
  o: {
    segment: string;
    key: "storage_id" | "misc_id" | "relation_id";
    noun: string;
    verbs: LinkVerbs<B, v.InferInput<I>>;
    body: v.GenericSchema<unknown, B>;
    item: I;
    items: v.ArraySchema<I, undefined>;
  },
) {
  const path = `${BASE}/:service_id/${o.segment}`;
  route(
    app,
    {
      method: "get",
      path,
      tag: "services",
      scope: o.verbs.list.scope,
      params: serviceParam,
      summary: `This service's ${o.noun} links`,
      response: { schema: o.items },
    },
    async (c, { params: p, reply }) => reply(await o.verbs.list({ ctx: verbContext(c), input: { serviceId: p.service_id } })),
  );
  route(
    app,
    {
      method: "post",
      path,
      tag: "services",
      scope: o.verbs.add.scope,
      params: serviceParam,
      body: o.body,
      summary: `Link a ${o.noun} to this service`,
      description: "A missing target is a 422 naming the field; an existing link is a 409.",
      response: { status: 201, schema: o.item },
      errors: [409],
    },
    async (c, { params: p, body, reply }) =>
      reply(await o.verbs.add({ ctx: verbContext(c), input: { serviceId: p.service_id, link: body } })),
  );
  route(
    app,
    {
      method: "delete",
      path: `${path}/:${o.key}`,
      tag: "services",
      scope: o.verbs.remove.scope,
      params: IdParam("service_id", o.key),
      summary: `Remove a ${o.noun} link`,
      response: { status: 204, description: "Deleted" },
    },
    async (c, { params: p }) => {
      await o.verbs.remove({ ctx: verbContext(c), input: { serviceId: p.service_id, key: p[o.key] } });
      return c.body(null, 204);
    },
  );
}

export function serviceRoutes(app: Hono<AppEnv>): void {
  // Before /services/:service_id so the literal segment is never read as an id.
  route(
    app,
    {
      method: "post",
      path: `${BASE}/check-ip`,
      tag: "services",
      scope: checkIp.scope,
      body: CheckIpBody,
      summary: "Which services, compute units, hardware nodes and IPAM records already use an IP",
      description:
        "exclude_service_id leaves that service (and IPAM records assigned to it) out, for checking a service's own address while editing it.",
      response: { schema: CheckIpResult },
    },
    async (c, { body, reply }) => reply(await checkIp({ ctx: verbContext(c), input: body })),
  );

  resourceRoutes(app, {
    verbs: serviceVerbs,
    tag: "services",
    basePath: BASE,
    idParam: "service_id",
    noun: ["service", "services"],
    bulk: { tags: true },
    item: Service,
    create: ServiceCreate,
    patch: ServicePatch,
    query: ServiceListQuery,
    deleteDescription:
      "The service's dependency edges (both directions) and its storage, misc and external-dependency links are removed with it; " +
      "a service.unlink audit entry lists them and counts the removed edges.",
  });

  route(
    app,
    {
      method: "get",
      path: `${BASE}/:service_id/dependencies`,
      tag: "services",
      scope: listDependencies.scope,
      params: serviceParam,
      query: DependencyQuery,
      summary: "Services this one depends on (direction=dependents: the services that depend on it)",
      response: { schema: RelatedServices },
    },
    async (c, { params: p, query, reply }) =>
      reply(await listDependencies({ ctx: verbContext(c), input: { serviceId: p.service_id, direction: query.direction } })),
  );
  route(
    app,
    {
      method: "post",
      path: `${BASE}/:service_id/dependencies`,
      tag: "services",
      scope: addDependency.scope,
      params: serviceParam,
      body: DependencyCreate,
      summary: "Make this service depend on another",
      description:
        'A self-dependency is a 422; a duplicate is a 409; an edge that would close a cycle is a 409 whose detail names the cycle ("a -> b -> a") and whose `cycle` lists the ids.',
      response: { status: 201, schema: Dependency },
      errors: [409],
    },
    async (c, { params: p, body, reply }) =>
      reply(await addDependency({ ctx: verbContext(c), input: { serviceId: p.service_id, dependsOnId: body.depends_on_id } })),
  );
  route(
    app,
    {
      method: "delete",
      path: `${BASE}/:service_id/dependencies/:depends_on_id`,
      tag: "services",
      scope: removeDependency.scope,
      params: IdParam("service_id", "depends_on_id"),
      summary: "Remove a dependency edge",
      response: { status: 204, description: "Deleted" },
    },
    async (c, { params: p }) => {
      await removeDependency({ ctx: verbContext(c), input: { serviceId: p.service_id, dependsOnId: p.depends_on_id } });
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/:service_id/discovery`,
      tag: "services",
      scope: serviceDiscovery.scope,
      params: serviceParam,
      summary: "What is known about where this service runs: host, addresses, IPAM, and what discovery last saw at those addresses",
      response: { schema: ServiceDiscovery },
    },
    async (c, { params: p, reply }) => reply(await serviceDiscovery({ ctx: verbContext(c), input: { serviceId: p.service_id } })),
  );

  linkRoutes(app, {
    segment: "storage",
    key: "storage_id",
    noun: "storage item",
    verbs: storageLinks,
    body: StorageLinkCreate,
    item: StorageLink,
    items: StorageLinks,
  });
  linkRoutes(app, {
    segment: "misc",
    key: "misc_id",
    noun: "misc item",
    verbs: miscLinks,
    body: MiscLinkCreate,
    item: MiscLink,
    items: MiscLinks,
  });
  linkRoutes(app, {
    segment: "external-dependencies",
    key: "relation_id",
    noun: "external node",
    verbs: externalDependencies,
    body: ExternalDependencyCreate,
    item: ExternalDependency,
    items: ExternalDependencies,
  });
}
