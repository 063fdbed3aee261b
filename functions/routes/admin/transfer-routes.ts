// /admin (catalogue group admin): the inventory export (streamed), its import (merge by id, a dry run,
// wipe_before_import behind RESTORE_WITH_WIPE) and clear-lab (CLEAR_LAB). docs/export-import.md.
import type { Hono } from "hono";
import { DryRunQuery, ExportDocument, ImportBody, ImportResult, LabCleared } from "../../../shared/schemas/transfer.ts";
import { CLEAR_LAB, clearLab } from "../../../shared/verbs/transfer/clear-lab.ts";
import { exportInventory } from "../../../shared/verbs/transfer/export-inventory.ts";
import { confirmationProblems } from "../../../shared/verbs/confirm/confirm.ts";
import { endRun, startRun } from "../../../shared/verbs/jobs/job-runs.ts";
import { IMPORT_JOB, importInventory, RESTORE_WITH_WIPE } from "../../../shared/verbs/transfer/import-inventory.ts";
import { EXPORT_FORMAT, EXPORT_ORDER, EXPORT_VERSION } from "../../../shared/verbs/transfer/kinds.ts";
import { confirmationDoc, confirmed } from "../../confirmation.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { streamedResponse } from "../../streamed-response.ts";

export const IMPORT_PATH = "/api/v1/admin/import";

/** The export as a stream: an error after the first byte aborts the response rather than ending it. */
function streamExport(c: Ctx): Promise<Response> {
  const ctx = verbContext(c);
  const stamp = ctx.clock
    .now()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return streamedResponse(
    c,
    {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="inventory-${stamp}.json"`,
      "X-Content-Type-Options": "nosniff",
    },
    (write) => exportInventory({ ctx, input: { write } }),
  );
}

type Ctx = Parameters<Parameters<typeof route>[2]>[0];

/**
 * A real import is a job run (`inventory_import`, docs/architecture.md, layers: long work reports its state): running
 * while it works (its own committed row, so GET /admin/jobs shows it), then success with the counts or
 * failed with the error code.
 */
async function asJobRun(c: Ctx, act: () => Promise<Response>): Promise<Response> {
  const ctx = verbContext(c);
  const run = await startRun({ ctx, input: { job: IMPORT_JOB, trigger: "manual" } });
  let res: Response;
  try {
    res = await act();
  } catch (err) {
    const code = (err as { code?: string }).code ?? "INTERNAL_SERVER_ERROR";
    await endRun({ ctx, input: { id: run.id, outcome: "failed", detail: {}, error: `${code}: ${(err as Error).message}`.slice(0, 1000) } });
    throw err;
  }
  const body = (await res.clone().json()) as {
    kinds?: Record<string, { created: number; updated: number; unchanged: number }>;
    wiped?: boolean;
    error_code?: string;
  };
  if (res.status >= 300) {
    await endRun({ ctx, input: { id: run.id, outcome: "failed", detail: {}, error: `${res.status} ${body.error_code ?? ""}`.trim() } });
    return res;
  }
  const kinds = body.kinds ?? {};
  const touched = Object.values(kinds).reduce((n, k) => n + k.created + k.updated, 0);
  const counts = Object.fromEntries(
    Object.entries(kinds).map(([k, d]) => [k, { created: d.created, updated: d.updated, unchanged: d.unchanged }]),
  );
  await endRun({ ctx, input: { id: run.id, outcome: "success", rows_touched: touched, detail: { wiped: body.wiped ?? false, counts } } });
  return res;
}

export function transferRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/admin/export",
      tag: "admin",
      scope: exportInventory.scope,
      summary: "Export the inventory and its relations as one versioned JSON document (streamed)",
      description: `{version: ${EXPORT_VERSION}, format: "${EXPORT_FORMAT}", exported_at, ${EXPORT_ORDER.join(", ")}}: every key an array of rows ordered by key, read from one consistent snapshot and written while it is read. The reference's keys come first, then ours (sites, environments, categories, vlans, ip_addresses, hardware_connections, network_peers). No users, secrets, sessions, settings, monitors or audit. An error after the first byte aborts the response (a truncated document never parses).`,
      response: { schema: ExportDocument, description: "The export document" },
    },
    // Streamed, so not reply(): the document is written while it is read (streamExport).
    (c) => streamExport(c),
  );

  route(
    app,
    {
      method: "post",
      path: IMPORT_PATH,
      tag: "admin",
      scope: importInventory.scope,
      summary: "Import an export document: merge by id in one transaction, or answer the diff (dry_run)",
      description: [
        "Rows are upserted by their key; every row is checked with the create rules (422 with its JSON path), every reference must name a row of the document or of the database (422 naming the kind and id), a unique value another row holds is a 422; any of them rolls the whole import back. Sequences are moved past the imported ids. 201 with the per-kind counts.",
        "dry_run=true answers 200 (not 201) with the same shape, imported false: the diff the import would apply ({created, updated, unchanged, conflicts} per kind); it changes nothing.",
        `wipe_before_import=true first deletes the inventory and the documents: ${confirmationDoc(RESTORE_WITH_WIPE)} A verified backup from the last 24 hours is also required (428 with reason no_verified_backup). A dry run needs no confirmation.`,
        "The body limit of this route is MAX_IMPORT_BYTES (256 MiB by default), not MAX_BODY_BYTES.",
      ].join("\n\n"),
      query: DryRunQuery,
      body: ImportBody,
      response: { status: 201, schema: ImportResult },
      errors: [409, 428],
    },
    async (c, { query, body, reply }) => {
      const input = {
        data: body.data,
        wipe: body.wipe_before_import,
        dryRun: query.dry_run,
        backupsAvailable: c.get("deps").backups !== undefined,
      };
      if (input.dryRun) return reply(await importInventory({ ctx: verbContext(c), input }), 200);
      if (input.wipe) {
        const wipe = () => confirmed(c, { ...RESTORE_WITH_WIPE, status: 201 }, reply, (ctx) => importInventory({ ctx, input }));
        // Refused for its headers (428) before anything ran: not a run of the job.
        const refused = Object.keys(confirmationProblems(RESTORE_WITH_WIPE, (name) => c.req.header(name))).length > 0;
        return refused ? wipe() : asJobRun(c, wipe);
      }
      return asJobRun(c, async () => reply(await importInventory({ ctx: verbContext(c), input }), 201));
    },
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/admin/clear-lab",
      tag: "admin",
      scope: clearLab.scope,
      summary: "Delete every inventory entity, with its monitors and telemetry (documents, users, settings and audit stay)",
      description: `${confirmationDoc(CLEAR_LAB)} A verified backup from the last 24 hours is also required (428 with reason no_verified_backup). Answers {cleared: true} and the rows deleted per table.`,
      response: { schema: LabCleared },
      errors: [409, 428],
    },
    async (c, { reply }) =>
      confirmed(c, CLEAR_LAB, reply, (ctx) => clearLab({ ctx, input: { backupsAvailable: c.get("deps").backups !== undefined } })),
  );
}
