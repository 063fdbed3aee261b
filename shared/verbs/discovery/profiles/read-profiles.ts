// GET /discovery/profiles: the list envelope (default sort name).
import { eq, sql } from "drizzle-orm";
import { discoveryProfiles } from "../../../db/schema/index.ts";
import type { DiscoveryProfileOut } from "../../../schemas/discovery.ts";
import type { ListParams } from "../../../schemas/list-query.ts";
import { type ListPage, type ListSpec, listPage } from "../../resources/list.ts";
import { defineRead } from "../../verb.ts";
import { READ_DISCOVERY } from "../scopes.ts";
import { presentProfile, type ProfileRow } from "./profile-row.ts";

const SPEC: ListSpec = {
  table: discoveryProfiles,
  id: discoveryProfiles.id,
  sortable: {
    name: sql`lower(${discoveryProfiles.name})`,
    created_at: discoveryProfiles.created_at,
    next_run_at: discoveryProfiles.next_run_at,
    last_run: discoveryProfiles.last_run,
    id: discoveryProfiles.id,
  },
  search: [discoveryProfiles.name, discoveryProfiles.cidr],
};

export const listProfiles = defineRead<ListParams & { enabled?: boolean | undefined }, ListPage<DiscoveryProfileOut>>(
  { scope: READ_DISCOVERY },
  (ctx, input) =>
    listPage<ProfileRow, DiscoveryProfileOut>(
      ctx.db,
      SPEC,
      input,
      [input.enabled !== undefined ? eq(discoveryProfiles.enabled, input.enabled) : undefined],
      (rows) => rows.map(presentProfile),
    ),
);
