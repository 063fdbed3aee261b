// What each grantable scope (spec 5.2) means, for GET /auth/scopes.
import { GRANTABLE_SCOPES } from "../../auth/scopes.ts";

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  "read:*": "Read every resource.",
  "write:*": "Create and change every resource.",
  "delete:*": "Delete every resource.",
  "admin:*": "Administer users, tokens, roles and settings.",
  "write:telemetry": "Push telemetry samples for hardware, and nothing else.",
  "read:ansible-inventory": "Read the Ansible dynamic inventory (GET /api/v1/sd/ansible), and nothing else.",
  "read:prometheus-sd": "Read the Prometheus HTTP service discovery targets (GET /api/v1/sd/prometheus), and nothing else.",
  "*:*": "Everything: every action on every resource.",
};

export const SCOPE_NARROWING_HINT =
  "A narrower <read|write|delete|admin>:<resource> scope (for example write:hardware) may be granted too; an API token needs write:tokens to create or rotate tokens.";

export function grantableScopeList(): { scope: string; description: string }[] {
  return GRANTABLE_SCOPES.map((scope) => ({ scope, description: DESCRIPTIONS[scope] ?? scope }));
}
