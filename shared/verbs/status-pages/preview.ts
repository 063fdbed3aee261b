// The preview of a status page for those who manage it (docs/adr/0460-status-page-console.md): the same
// summary the public page is rendered from, read by id, so a draft can be seen before it is published.
import { defineRead } from "../verb.ts";
import { requirePage } from "./page-rows.ts";
import { READ_STATUS_PAGES } from "./scopes.ts";
import { buildSummary } from "./summary.ts";

export const previewStatusPage = defineRead({ scope: READ_STATUS_PAGES }, async (ctx, { id }: { id: number }) =>
  buildSummary(ctx.db, await requirePage(ctx.db, id), ctx.clock.now()),
);
