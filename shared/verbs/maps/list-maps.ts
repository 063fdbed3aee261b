// GET /maps: a page of maps with their placed objects, like every list of the resource engine, and all
// geographic pins (`pins`) whatever the page: the map page shows both.
import type { ListParams } from "../../schemas/list-query.ts";
import { defineRead } from "../verb.ts";
import { mapsVerbs } from "./def.ts";
import { allPins } from "./pins.ts";

export const listMaps = defineRead({ scope: mapsVerbs.scopes.read }, async (ctx, params: ListParams) => {
  const page = await mapsVerbs.list({ ctx, input: params });
  return { ...page, pins: await allPins(ctx.db) };
});
