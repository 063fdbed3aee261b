// GET /.well-known/acme-challenge/{token} (RFC 8555 8.3, docs/acme.md): public, outside /api and the
// OpenAPI document (like the other static/probe routes: the CA fetches it, no client of the API does).
// Answers the key authorization recorded in acme_challenges, so any process behind the name can serve
// it; 404 for an unknown, expired or malformed token.
import type { Hono } from "hono";
import { readAcmeChallenge } from "../../shared/verbs/certificates/acme-challenges.ts";
import { verbContext } from "../context.ts";
import type { AppEnv } from "../deps.ts";

export function acmeChallengeRoutes(app: Hono<AppEnv>): void {
  app.get("/.well-known/acme-challenge/:token", async (c) => {
    const keyAuthorization = await readAcmeChallenge({ ctx: verbContext(c), input: { token: c.req.param("token") } });
    const headers = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };
    return keyAuthorization === null ? c.body("Not found\n", 404, headers) : c.body(keyAuthorization, 200, headers);
  });
}
