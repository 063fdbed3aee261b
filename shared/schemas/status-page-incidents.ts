// Request and answer shapes of a status page's incidents (docs/adr/0456-status-page-incidents.md): the
// administrators' API under /status-pages/{page_id}/incidents and the public view of the summary, the
// history and its JSON twin. The public view has no ids: its `key` is random per incident.
import * as v from "valibot";
import { patchBody, Ref, TagName, writeBody } from "./fields.ts";
import { limitParam, listQuery, listResponse, Offset } from "./list-query.ts";

export const INCIDENT_STATUSES = ["investigating", "identified", "monitoring", "resolved"] as const;
export const INCIDENT_IMPACTS = ["none", "minor", "major", "critical"] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
export type IncidentImpact = (typeof INCIDENT_IMPACTS)[number];

const Status = v.picklist(INCIDENT_STATUSES, `Must be one of: ${INCIDENT_STATUSES.join(", ")}.`);
const Impact = v.picklist(INCIDENT_IMPACTS, `Must be one of: ${INCIDENT_IMPACTS.join(", ")}.`);
const Title = v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(200));
export const MAX_UPDATE_BODY = 20_000;
const Body = v.pipe(v.string(), v.trim(), v.minLength(1, "Write what happened."), v.maxLength(MAX_UPDATE_BODY));

const AffectedRef = v.variant(
  "kind",
  [
    v.object({ kind: v.literal("monitor"), monitor_id: Ref }),
    v.object({ kind: v.literal("service"), service_id: Ref }),
    v.object({ kind: v.literal("tag"), tag: TagName }),
  ],
  'kind must be "monitor", "service" or "tag".',
);
const Affected = v.pipe(v.array(AffectedRef), v.maxLength(200));

export const IncidentCreateBody = writeBody({
  title: Title,
  status: v.optional(Status, "investigating"),
  impact: v.optional(Impact, "minor"),
  /** The first timeline entry (Markdown). */
  body: Body,
  affected: v.optional(Affected, []),
  /** true: publish at once (the operator's confirmation); false (the default): a draft. */
  publish: v.optional(v.boolean(), false),
});
export type IncidentCreate = v.InferOutput<typeof IncidentCreateBody>;

export const IncidentPatchBody = patchBody({ title: Title, impact: Impact, affected: Affected });
export type IncidentPatch = v.InferOutput<typeof IncidentPatchBody>;

export const IncidentUpdateBody = writeBody({
  /** Absent: the incident's status stays. */
  status: v.optional(Status),
  body: Body,
});
export type IncidentUpdateInput = v.InferOutput<typeof IncidentUpdateBody>;

const AffectedOut = v.object({
  kind: v.picklist(["monitor", "service", "tag"]),
  monitor_id: v.nullable(v.number()),
  service_id: v.nullable(v.number()),
  tag: v.nullable(v.string()),
  /** The matching item's public name on the page now; null when no item of the page points there any more. */
  public_name: v.nullable(v.string()),
});

export const IncidentOut = v.object({
  id: v.number(),
  page_id: v.number(),
  key: v.string(),
  title: v.string(),
  status: v.picklist(INCIDENT_STATUSES),
  impact: v.picklist(INCIDENT_IMPACTS),
  source: v.picklist(["operator", "automatic"]),
  published: v.boolean(),
  published_at: v.nullable(v.string()),
  publish_after: v.nullable(v.string()),
  resolved_at: v.nullable(v.string()),
  affected: v.array(AffectedOut),
  updates: v.array(
    v.object({ id: v.number(), status: v.picklist(INCIDENT_STATUSES), body: v.string(), html: v.string(), created_at: v.string() }),
  ),
  created_at: v.string(),
  updated_at: v.string(),
});
export type IncidentShape = v.InferInput<typeof IncidentOut>;

export const INCIDENT_SORTS = ["created_at", "id", "published_at", "title"] as const;
export const IncidentListQuery = listQuery(INCIDENT_SORTS, {
  state: v.optional(v.picklist(["draft", "open", "resolved"], "Must be draft, open or resolved.")),
});
export const IncidentList = listResponse(IncidentOut);

/** An incident as the public sees it: no ids; affected items by their public names on the page now. */
export const PublicIncident = v.object({
  key: v.string(),
  title: v.string(),
  status: v.picklist(INCIDENT_STATUSES),
  impact: v.picklist(INCIDENT_IMPACTS),
  started_at: v.string(),
  resolved_at: v.nullable(v.string()),
  updated_at: v.string(),
  affected: v.array(v.string()),
  /** Newest first; `html` is the sanitised rendering of the update's Markdown. */
  updates: v.array(v.object({ status: v.picklist(INCIDENT_STATUSES), html: v.string(), created_at: v.string() })),
});
export type PublicIncidentShape = v.InferInput<typeof PublicIncident>;

/** The public history's JSON twin: newest first, paged by limit and offset only. */
export const PublicIncidentListQuery = v.object({ limit: limitParam({ default: 20, max: 100 }), offset: Offset });
export const PublicIncidentList = listResponse(PublicIncident);

/** One page of a published status page's history, with what the HTML needs of the page itself. */
export interface StatusPageHistoryShape {
  page: {
    slug: string;
    title: string;
    description: string | null;
    logo_url: string | null;
    footer_text: string | null;
    colors: { primary: string; accent: string };
    /** The page's last change: the feeds' date when it has no incident. */
    updated_at: string;
  };
  items: PublicIncidentShape[];
  total: number;
  limit: number;
  offset: number;
}
