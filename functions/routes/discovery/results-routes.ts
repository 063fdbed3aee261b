// [discovery] results and merges: the result lists, suggest, merge, bulk-merge and the undo of a merge
// through its audit entry (ours). Every merge answers `audit_id`, the entry POST /discovery/merges/{audit_id}/undo takes.
import type { Hono } from "hono";
import {
  AuditIdParams,
  BatchImportBody,
  BatchImportOut,
  BulkMergeBody,
  EnhancedBulkMergeBody,
  EnhancedBulkMergeOut,
  ImportAsNetworkBody,
  ImportAsNetworkOut,
  BulkMergeOut,
  JobIdParams,
  JobResultsQuery,
  MergeBody,
  MergeOut,
  ResultIdParams,
  ResultsQuery,
  ScanResultList,
  SuggestBody,
  SuggestOut,
  UndoOut,
} from "../../../shared/schemas/discovery-results.ts";
import { enhancedBulkMerge } from "../../../shared/verbs/discovery/results/enhanced-merge.ts";
import { batchImport, importAsNetwork } from "../../../shared/verbs/discovery/results/import-results.ts";
import { bulkMerge, mergeResult, withAuditId } from "../../../shared/verbs/discovery/results/merge-results.ts";
import { listJobResults, listResults, suggestResults } from "../../../shared/verbs/discovery/results/read-results.ts";
import { undoAuditId, undoMerge } from "../../../shared/verbs/discovery/results/undo-merge.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const BASE = "/api/v1/discovery";
const LIST_NOTE =
  "The list envelope, newest first unless `sort`/`direction` say otherwise; `q` searches address, hostname, MAC and vendor.";

export function resultsRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: `${BASE}/results`,
      tag: "discovery",
      scope: listResults.scope,
      query: ResultsQuery,
      response: { schema: ScanResultList },
      summary: "Scan results across jobs",
      description: `${LIST_NOTE} \`status\` pending (default), all, or a merge status; filters job_id, agent_id.`,
    },
    async (c, { query, reply }) => reply(await listResults({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/results/suggest`,
      tag: "discovery",
      scope: suggestResults.scope,
      body: SuggestBody,
      response: { schema: SuggestOut },
      summary: "What each result would become",
      description:
        "Per result: the node name, vendor, role and icon a merge would give it, with the signals used, and whether it would create a node, update the matched one or needs review (a conflict).",
    },
    async (c, { body, reply }) => reply(await suggestResults({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/results/bulk-merge`,
      tag: "discovery",
      scope: bulkMerge.scope,
      body: BulkMergeBody,
      response: { schema: BulkMergeOut },
      summary: "Accept or reject many results at once",
      description:
        "One transaction and one audit entry. Accept creates a node per new result and updates the node of each matched one; conflicts, results already reviewed and unknown ids are skipped.",
    },
    async (c, { body, reply }) => {
      const ctx = verbContext(c);
      return reply(await withAuditId(ctx, bulkMerge({ ctx, input: body })));
    },
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/results/enhanced-bulk-merge`,
      tag: "discovery",
      scope: enhancedBulkMerge.scope,
      body: EnhancedBulkMergeBody,
      response: { schema: EnhancedBulkMergeOut },
      summary: "Accept results with assignments, a cluster, a network and services",
      description:
        "One transaction and one audit entry: the results (conflicts and reviewed ones skipped) are accepted with their `assignments` (name, role, vendor, catalogue keys); `cluster` makes a cluster of the nodes (409 when its name is taken), `network` joins them to an existing network (`existing_id`) or a new one, `create_services` makes a service per open port. `errors` lists what was left out without failing.",
      errors: [409],
    },
    async (c, { body, reply }) => {
      const ctx = verbContext(c);
      return reply(await withAuditId(ctx, enhancedBulkMerge({ ctx, input: body })));
    },
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/results/:result_id/merge`,
      tag: "discovery",
      scope: mergeResult.scope,
      params: ResultIdParams,
      body: MergeBody,
      response: { schema: MergeOut },
      summary: "Accept or reject one result",
      description:
        'reject → `{rejected: true}`; accept of a matched or conflicting result → `{updated: true}` (the node takes the discovered address, MAC and the overrides); accept of a new one → `{entity_type: "hardware", entity_id, ports}`. 404 "Scan result not found"; 409 when already reviewed.',
      errors: [409],
    },
    async (c, { params, body, reply }) => {
      const ctx = verbContext(c);
      return reply(
        await withAuditId(
          ctx,
          mergeResult({ ctx, input: { result_id: params.result_id, action: body.action, overrides: body.overrides } }),
        ),
      );
    },
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/jobs/:job_id/results`,
      tag: "discovery",
      scope: listJobResults.scope,
      params: JobIdParams,
      query: JobResultsQuery,
      response: { schema: ScanResultList },
      summary: "The results of one scan job",
      description: `${LIST_NOTE} \`with_inference=true\` adds what suggest would make of each result. 404 "Job not found".`,
    },
    async (c, { params, query, reply }) => reply(await listJobResults({ ctx: verbContext(c), input: { ...query, job_id: params.job_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/jobs/:job_id/batch-import`,
      tag: "discovery",
      scope: batchImport.scope,
      params: JobIdParams,
      body: BatchImportBody,
      response: { schema: BatchImportOut },
      summary: "Import chosen results of a job into the inventory",
      description:
        'One transaction and one audit entry: new results become hardware nodes (with the item\'s overrides), matched ones update their node; conflicts are listed, not merged; results of other jobs, unknown or already reviewed are `skipped`. 404 "Scan job not found".',
    },
    async (c, { params, body, reply }) => {
      const ctx = verbContext(c);
      return reply(await withAuditId(ctx, batchImport({ ctx, input: { job_id: params.job_id, items: body.items } })));
    },
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/jobs/:job_id/import-as-network`,
      tag: "discovery",
      scope: importAsNetwork.scope,
      params: JobIdParams,
      body: ImportAsNetworkBody,
      response: { schema: ImportAsNetworkOut },
      summary: "Import chosen results as a network",
      description:
        'As batch-import, and the nodes join the network of the job\'s subnet (a placeholder network is made when none has that CIDR; `placeholders` lists it, `edges_created` counts the memberships). With `map_id` (needs write:layout as well) new nodes are placed on that map in a grid; unknown map 404 "Map not found".',
    },
    async (c, { params, body, reply }) => {
      const ctx = verbContext(c);
      return reply(await withAuditId(ctx, importAsNetwork({ ctx, input: { job_id: params.job_id, ...body } })));
    },
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/merges/:audit_id/undo`,
      tag: "discovery",
      scope: undoMerge.scope,
      params: AuditIdParams,
      response: { schema: UndoOut },
      summary: "Undo a merge through its audit entry",
      description:
        "Deletes the rows the merge created, restores the previous values of the rows it updated and puts its results back to their previous review, in one transaction. 409 when any of those rows changed since the merge, or when it was undone already; 404 for an entry that is no merge.",
      errors: [409],
    },
    async (c, { params, reply }) => {
      const ctx = verbContext(c);
      const out = await undoMerge({ ctx, input: { audit_id: params.audit_id } });
      return reply({ ...out, undo_audit_id: await undoAuditId({ ctx, input: params.audit_id }) });
    },
  );
}
