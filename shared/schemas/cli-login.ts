// [auth] request and response shapes of the CLI's browser sign-in (docs/adr/0504): the approval and the
// denial the console sends for the signed-in user, and the public code exchange the CLI makes.
import * as v from "valibot";
import { Scopes } from "./roles.ts";
import { ApiTokenCreate } from "./tokens.ts";

/** RFC 7636's unreserved characters, as the state, code and verifier are written. */
const Unreserved = (what: string, min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(new RegExp(`^[A-Za-z0-9._~-]{${min},${max}}$`), `${what} must be ${min} to ${max} characters of A-Z a-z 0-9 - . _ ~.`),
  );

const Request = {
  redirect_uri: v.pipe(
    v.string(),
    v.maxLength(512),
    v.description("Where the browser goes back to: http://127.0.0.1:<port>/... or http://[::1]:<port>/... only."),
  ),
  state: v.pipe(Unreserved("state", 16, 256), v.description("The CLI's own value, handed back unchanged.")),
  client_name: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, "client_name is required."),
    v.maxLength(100, "client_name must be at most 100 characters."),
    v.description("What the CLI says it is, shown to the user; not verified."),
  ),
};

export const CliLoginApprove = v.object({
  ...Request,
  code_challenge: v.pipe(
    v.string(),
    v.regex(/^[A-Za-z0-9_-]{43}$/, "code_challenge must be a base64url SHA-256 digest (43 characters)."),
    v.description("PKCE: base64url(SHA-256(code_verifier)), RFC 7636."),
  ),
  code_challenge_method: v.picklist(["S256"], "code_challenge_method must be S256."),
  label: ApiTokenCreate.entries.label,
  scopes: v.optional(Scopes),
  expires_at: ApiTokenCreate.entries.expires_at,
  expires_in_days: ApiTokenCreate.entries.expires_in_days,
});
export const CliLoginDeny = v.object(Request);
export const CliLoginRedirect = v.object({
  redirect_to: v.pipe(v.string(), v.description("The loopback URI with code and state (or error=access_denied and state).")),
});

export const CliLoginExchange = v.object({
  code: Unreserved("code", 16, 256),
  code_verifier: Unreserved("code_verifier", 43, 128),
  redirect_uri: v.pipe(v.string(), v.maxLength(512)),
});
