// The prefix verbs: the resource engine's five over prefixDef.
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { prefixDef } from "./def.ts";

export const prefixVerbs = resourceVerbs(prefixDef);
