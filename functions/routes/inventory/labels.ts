// [environments] [categories] [tags]: the labels resources carry.
import type { Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  Category,
  CategoryCreate,
  CategoryPatch,
  Environment,
  EnvironmentCreate,
  EnvironmentPatch,
  LabelListQuery,
  Tag,
  TagList,
  TagPatch,
} from "../../../shared/schemas/labels.ts";
import { categoryVerbs, environmentVerbs } from "../../../shared/verbs/inventory/labels/def.ts";
import { listTags, tagVerbs } from "../../../shared/verbs/inventory/labels/tags.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes, withEtag } from "./resource-routes.ts";

const LABEL_WRITES =
  "Labels services carry, so they share the services scopes (write:services, delete:services). name is unique (409); color is #rrggbb.";

export function labelRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: environmentVerbs,
    tag: "environments",
    basePath: "/api/v1/environments",
    idParam: "environment_id",
    noun: ["environment", "environments"],
    bulk: { tags: false },
    item: Environment,
    create: EnvironmentCreate,
    patch: EnvironmentPatch,
    query: LabelListQuery,
    writeDescription: LABEL_WRITES,
    deleteDescription: "Hardware, compute units, services and clusters in this environment keep existing with environment_id set to null.",
  });
  resourceRoutes(app, {
    verbs: categoryVerbs,
    tag: "categories",
    basePath: "/api/v1/categories",
    idParam: "category_id",
    noun: ["category", "categories"],
    bulk: { tags: false },
    item: Category,
    create: CategoryCreate,
    patch: CategoryPatch,
    query: LabelListQuery,
    writeDescription: LABEL_WRITES,
    deleteDescription: "Services in this category keep existing with category_id set to null.",
  });

  route(
    app,
    {
      method: "get",
      path: "/api/v1/tags",
      tag: "tags",
      scope: listTags.scope,
      summary: "The unique tag set with colours and usage counts",
      description:
        "Every tag resources carry (a tag is registered when a resource is written with it), with usage_count across hardware, compute units, services, storage, networks, external nodes and misc items. A bare array, sorted by name.",
      response: { schema: TagList },
    },
    async (c, { reply }) => reply(await listTags({ ctx: verbContext(c) })),
  );
  route(
    app,
    {
      method: "patch",
      path: "/api/v1/tags/:tag_id",
      tag: "tags",
      scope: tagVerbs.update.scope,
      params: IdParam("tag_id"),
      body: TagPatch,
      summary: "Change a tag's colour",
      description:
        "Only color is writable (name and usage_count are ignored when sent back). A tag's colour is UI layout, so this needs write:layout, which editors hold.",
      response: { schema: Tag },
    },
    async (c, { params: p, body, reply }) =>
      withEtag(c, await tagVerbs.update({ ctx: verbContext(c), input: { id: p.tag_id, values: body } }), reply),
  );
}
