// GitHub (OAuth 2.0 without OpenID Connect): the code is exchanged at /login/oauth/access_token, the
// account read from the REST API's /user, and the e-mail taken only from /user/emails where GitHub says
// it is verified (the primary one). Base URLs are configurable for GitHub Enterprise.
import { ApiError } from "../../errors.ts";
import { fetchJson, formBody, type ProviderHttp, upstreamFailed } from "./http.ts";
import type { ProviderIdentity } from "./identity.ts";

export const GITHUB_BASE = "https://github.com";
export const GITHUB_API = "https://api.github.com";

export interface GitHubEndpoints {
  base: string;
  api: string;
}

export function githubAuthorizeUrl(e: GitHubEndpoints, params: Record<string, string>): string {
  return `${e.base}/login/oauth/authorize?${new URLSearchParams({ ...params, scope: "user:email" })}`;
}

interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

export async function githubIdentity(
  h: ProviderHttp,
  e: GitHubEndpoints,
  exchange: { clientId: string; clientSecret: string | null; code: string; redirectUri: string; codeVerifier: string },
): Promise<ProviderIdentity> {
  const token = await fetchJson<{ access_token?: string; error?: string }>(h, "token exchange", `${e.base}/login/oauth/access_token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: formBody({
      client_id: exchange.clientId,
      client_secret: exchange.clientSecret,
      code: exchange.code,
      redirect_uri: exchange.redirectUri,
      code_verifier: exchange.codeVerifier,
    }),
  });
  // GitHub answers 200 with {error} for a bad or used code.
  if (typeof token.access_token !== "string" || !token.access_token) throw upstreamFailed(h, "token exchange");
  const headers = { authorization: `Bearer ${token.access_token}`, "x-github-api-version": "2022-11-28" };
  const user = await fetchJson<{ id?: number; login?: string; name?: string | null }>(h, "user lookup", `${e.api}/user`, { headers });
  if (typeof user.id !== "number") throw upstreamFailed(h, "user lookup");
  const emails = await fetchJson<GitHubEmail[]>(h, "e-mail lookup", `${e.api}/user/emails`, { headers });
  if (!Array.isArray(emails)) throw upstreamFailed(h, "e-mail lookup");
  const primary = emails.find((m) => m.primary && m.verified) ?? emails.find((m) => m.verified);
  if (!primary) throw new ApiError("BAD_REQUEST", `Could not obtain a verified e-mail from ${h.label}.`);
  return { issuer: e.base, subject: String(user.id), email: primary.email.toLowerCase(), name: user.name ?? user.login ?? null };
}
