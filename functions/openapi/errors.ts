// The error envelope as an OpenAPI schema and the shared error responses every route refers to.
import { resolver } from "hono-openapi";
import * as v from "valibot";

export const ValidationIssueSchema = v.object({
  loc: v.array(v.union([v.string(), v.number()])),
  msg: v.string(),
  type: v.string(),
});

export const ErrorBodySchema = v.object({
  error_code: v.string(),
  detail: v.union([v.string(), v.array(ValidationIssueSchema)]),
  fields: v.optional(v.record(v.string(), v.string())),
  retry_after: v.optional(v.number()),
  body: v.optional(v.string()),
  health: v.optional(v.string()),
  required: v.optional(v.array(v.string())),
  traceback: v.optional(v.string()),
});

const described: Record<number, [name: string, description: string]> = {
  400: ["BadRequest", "The request cannot be carried out as asked (the detail says why)."],
  401: ["Unauthorized", "No credential, or an invalid one."],
  403: ["Forbidden", "PERMISSION_DENIED: the credential lacks the scope this operation needs."],
  404: ["NotFound", "RESOURCE_NOT_FOUND: the detail names the resource and id."],
  409: ["Conflict", "The change conflicts with stored state (the detail says which)."],
  410: ["Gone", "The operation was removed by decision."],
  412: ["PreconditionFailed", "If-Match did not match the stored version."],
  413: ["PayloadTooLarge", "The request body is over the size limit."],
  423: ["Locked", "ACCOUNT_LOCKED: too many failed sign-ins; `retry_after` says when to try again."],
  422: ["ValidationError", "VALIDATION_ERROR: a list of {loc, msg, type}, `fields`, and `body` (first 500 characters)."],
  428: ["ConfirmationRequired", "CONFIRMATION_REQUIRED: the high-impact action needs its confirmation headers."],
  429: ["RateLimited", "RATE_LIMITED with `retry_after`; see the Retry-After header."],
  500: ["InternalError", "INTERNAL_SERVER_ERROR / Internal server error."],
  502: ["BadGateway", "UPSTREAM_FAILED: a peer the operation depends on (an OAuth provider) failed; the detail says which step."],
  503: ["Unavailable", "SERVICE_NOT_READY or SERVER_DRAINING, with `health` and Retry-After: 5."],
};

export const errorStatuses = Object.keys(described).map(Number);

export function errorComponentName(status: number): string {
  return described[status]?.[0] ?? `Error${status}`;
}

/** components.responses of the document: one entry per error status. */
export function errorComponents() {
  return Object.fromEntries(
    Object.entries(described).map(([, [name, description]]) => [
      name,
      { description, content: { "application/json": { schema: resolver(ErrorBodySchema) } } },
    ]),
  );
}
