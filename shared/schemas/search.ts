// [search] GET /search's query (the text, the resource kinds wanted and how many results) and its answer.
import * as v from "valibot";
import { SEARCH_TYPES } from "../verbs/search/search.ts";
import { CommaList } from "./fields.ts";
import { limitParam } from "./list-query.ts";

export const SearchQuery = v.object({
  q: v.pipe(v.string(), v.trim(), v.minLength(1, "Say what to search for."), v.maxLength(200)),
  types: CommaList(SEARCH_TYPES),
  limit: limitParam({ default: 10, max: 50 }),
});

export const SearchResults = v.object({
  query: v.string(),
  results: v.array(v.object({ type: v.picklist(SEARCH_TYPES), id: v.number(), name: v.string(), subtitle: v.nullable(v.string()) })),
  counts: v.record(v.string(), v.number()),
});
