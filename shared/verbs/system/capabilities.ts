// GET /capabilities: what this deployment can do, from what its process was actually given (never a
// configured wish): the database driver, whether Redis is in use, whether this is an edge worker.
import { defineRead } from "../verb.ts";
import { requireSignedIn } from "./signed-in.ts";

export interface DeploymentFacts {
  database: "postgres" | "pglite";
  /** REDIS_URL is set (Node only: workers never open Redis). */
  redisConfigured: boolean;
  rateLimitStore: "redis" | "database";
  /** The API reference pages' scripts are served locally. */
  apiDocsAssets: boolean;
}

/** workerd reports itself as Cloudflare-Workers; Node as Node.js/<version>. */
export function isEdgeRuntime(): boolean {
  return typeof navigator !== "undefined" && navigator.userAgent === "Cloudflare-Workers";
}

export const capabilities = defineRead({ scope: requireSignedIn }, async (_ctx, facts: DeploymentFacts) => {
  const edge = isEdgeRuntime();
  return {
    database: facts.database,
    redis: facts.redisConfigured && !edge,
    edge,
    features: {
      // Uploads (avatars too) live in the database, so every instance (the edge included) stores and serves them.
      uploads: true,
      avatars: true,
      markdown_docs: true,
      device_catalog: true,
      api_reference_offline: facts.apiDocsAssets,
      rate_limit_store: edge ? "database" : facts.rateLimitStore,
      // The service runs on closed networks: it never calls out to look for releases.
      update_check: false,
    },
  };
});
