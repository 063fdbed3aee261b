// The Node AcmeIssuer (docs/acme.md) on acme-client (RFC 8555): one account per directory URL, its
// ECDSA P-256 key sealed by the vault in server_secrets; a new P-256 certificate key per order; http-01
// answered through the acme_challenges table (served by GET /.well-known/acme-challenge/{token} from any
// process). The CA's problem documents become ApiError 502 with the CA's detail; the whole order is
// bounded by a deadline and honours the caller's AbortSignal.
import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { Agent } from "node:https";
import * as acme from "acme-client";
import type { Config } from "../../shared/config.ts";
import { ApiError } from "../../shared/errors.ts";
import type { Logger } from "../../shared/logger.ts";
import type { AcmeIssuer, AcmeIssueRequest, IssuedCertificate } from "../../shared/services/certificates/acme-issuer.ts";
import { acmeAccountKey, putAcmeChallenge, removeAcmeChallenge } from "../../shared/services/certificates/acme-challenges.ts";
import type { VerbContext } from "../../shared/services/verb-context.ts";
import type { Vault } from "../../shared/vault/vault.ts";

export const ACME_DEADLINE_MS = 120_000;
/** How long a recorded key authorization stays servable (the order's deadline, with margin). */
const CHALLENGE_TTL_MS = 10 * 60_000;
const DOMAIN = /^(\*\.)?(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export interface AcmeIssuerOptions {
  config: Pick<Config, "SVC_ACME_DIRECTORY_URL" | "SVC_ACME_STAGING_DIRECTORY_URL" | "SVC_ACME_EMAIL" | "SVC_ACME_CA_FILE">;
  vault: Vault;
  /** A system context on the shared database (the issuer's writes are the system's). */
  context: () => VerbContext;
  logger: Logger;
  deadlineMs?: number;
}

export function nodeAcmeIssuer(options: AcmeIssuerOptions): AcmeIssuer {
  // acme-client talks through its own axios instance: the test/private CA is trusted there only.
  if (options.config.SVC_ACME_CA_FILE) acme.axios.defaults.httpsAgent = new Agent({ ca: readFileSync(options.config.SVC_ACME_CA_FILE) });
  acme.setLogger(() => {});
  return {
    async issue(req, signal) {
      const domain = req.domain.toLowerCase();
      if (!DOMAIN.test(domain)) throw ApiError.validation([{ loc: ["body", "domain"], msg: `"${req.domain}" is not a DNS name.`, type: "value_error" }]);
      if (req.challenge === "http-01" && domain.startsWith("*.")) throw ApiError.validation([{ loc: ["body", "challenge"], msg: "A wildcard name needs the dns-01 challenge.", type: "value_error" }]);
      if (req.challenge === "dns-01") throw ApiError.validation([{ loc: ["body", "challenge"], msg: "dns-01 issuance is not supported yet; use http-01.", type: "value_error" }]);
      return bounded(options.deadlineMs ?? ACME_DEADLINE_MS, signal, () => order(options, { ...req, domain }));
    },
  };
}

async function order(options: AcmeIssuerOptions, req: AcmeIssueRequest): Promise<IssuedCertificate> {
  const { config, vault } = options;
  const directoryUrl = (req.staging ? config.SVC_ACME_STAGING_DIRECTORY_URL : config.SVC_ACME_DIRECTORY_URL) ?? acme.directory.letsencrypt[req.staging ? "staging" : "production"];
  const ctx = options.context();
  try {
    const accountKey = await acmeAccountKey({ ctx, input: { directoryUrl, vault, create: async () => (await acme.crypto.createPrivateEcdsaKey("P-256")).toString() } });
    const client = new acme.Client({ directoryUrl, accountKey });
    // newAccount answers an existing key's account (200) with its URL; asking for it here means
    // acme-client's auto() finds the account instead of sending an empty update, which CAs refuse.
    const contact = config.SVC_ACME_EMAIL ? { contact: [`mailto:${config.SVC_ACME_EMAIL}`] } : {};
    await (client as unknown as { api: { createAccount(data: object): Promise<unknown> } }).api.createAccount({ termsOfServiceAgreed: true, ...contact });
    const [key, csr] = await acme.crypto.createCsr({ commonName: req.domain, altNames: [req.domain] }, await acme.crypto.createPrivateEcdsaKey("P-256"));
    const cert = await client.auto({
      csr,
      ...(config.SVC_ACME_EMAIL ? { email: config.SVC_ACME_EMAIL } : {}),
      termsOfServiceAgreed: true,
      challengePriority: [req.challenge],
      // The CA validates; a self-check would fetch our own name from here, which proves nothing.
      skipChallengeVerification: true,
      challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
        await putAcmeChallenge({ ctx: options.context(), input: { token: challenge.token, keyAuthorization, ttlMs: CHALLENGE_TTL_MS } });
      },
      challengeRemoveFn: async (_authz, challenge) => {
        await removeAcmeChallenge({ ctx: options.context(), input: { token: challenge.token } });
      },
    });
    return { cert_pem: cert, key_pem: toPkcs8(key.toString()) };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    options.logger.warn("acme issuance failed", { domain: req.domain, directory: directoryUrl, detail });
    throw new ApiError("UPSTREAM_FAILED", `The ACME CA did not issue a certificate for ${req.domain}: ${detail}`, { directory_url: directoryUrl });
  }
}

/** acme-client writes SEC1 ("EC PRIVATE KEY"); the seam promises PKCS#8. */
const toPkcs8 = (pem: string) => createPrivateKey(pem).export({ type: "pkcs8", format: "pem" }).toString();

function bounded<T>(ms: number, signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ApiError("UPSTREAM_FAILED", `The ACME order did not finish within ${Math.round(ms / 1000)} s.`)), ms);
    const abort = () => reject(new ApiError("UPSTREAM_FAILED", "The ACME order was cancelled."));
    if (signal?.aborted) abort();
    signal?.addEventListener("abort", abort, { once: true });
    run().then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    });
  });
}
