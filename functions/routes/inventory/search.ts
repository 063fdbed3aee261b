// [search] GET /search: one query across every resource.
import type { Hono } from "hono";
import { SearchQuery, SearchResults } from "../../../shared/schemas/search.ts";
import { search } from "../../../shared/verbs/search/search.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function searchRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/search",
      tag: "search",
      scope: search.scope,
      summary: "Search every resource by name and its other identifying fields (case-insensitive substring)",
      query: SearchQuery,
      response: { schema: SearchResults },
    },
    async (c, { query, reply }) => reply(await search({ ctx: verbContext(c), input: query })),
  );
}
