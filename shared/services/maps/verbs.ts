// The map verbs: the shared resource verbs, and the list that also carries every pin.
import type { ListParams } from "../../schemas/list-query.ts";
import type { VerbContext } from "../verb-context.ts";
import { resourceVerbs } from "../inventory/resource.ts";
import { mapsDef } from "./def.ts";
import { allPins } from "./pins.ts";

export const mapsVerbs = resourceVerbs(mapsDef);

/** GET /maps: a page of maps with their placed objects, and all geographic pins (`pins`). */
export async function listMaps({ ctx, params }: { ctx: VerbContext; params: ListParams }) {
  const page = await mapsVerbs.list({ ctx, params });
  return { ...page, pins: await allPins(ctx.db) };
}
