// [search] GET /search: one query across every resource.
import type { Hono } from "hono";
import * as v from "valibot";
import { limitParam } from "../../../shared/schemas/list-query.ts";
import { search, SEARCH_TYPES } from "../../../shared/verbs/search/search.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function searchRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get", path: "/api/v1/search", tag: "search", scope: search.scope,
      summary: "Search every resource by name and its other identifying fields (case-insensitive substring)",
      query: v.object({
        q: v.pipe(v.string(), v.trim(), v.minLength(1, "Say what to search for."), v.maxLength(200)),
        types: v.optional(v.pipe(v.string(), v.transform((s) => s.split(",").map((t) => t.trim()).filter(Boolean)), v.array(v.picklist(SEARCH_TYPES, `Types are: ${SEARCH_TYPES.join(", ")}.`)))),
        limit: limitParam({ default: 10, max: 50 }),
      }),
      response: {
        schema: v.object({
          query: v.string(),
          results: v.array(v.object({ type: v.picklist(SEARCH_TYPES), id: v.number(), name: v.string(), subtitle: v.nullable(v.string()) })),
          counts: v.record(v.string(), v.number()),
        }),
      },
    },
    async (c, { query, reply }) => reply(await search({ ctx: verbContext(c), input: query })),
  );
}
