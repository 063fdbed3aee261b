// The Node AcmeIssuer (docs/acme.md) on acme-client (RFC 8555): one account per directory URL, its
// ECDSA P-256 key sealed by the vault in server_secrets; a new P-256 certificate key per order; http-01
// answered through the acme_challenges table (served by GET /.well-known/acme-challenge/{token} from any
// process); dns-01 through the ACME DNS settings' provider (runtime/acme/dns/: Cloudflare or RFC 2136),
// the TXT record waited for on the zone's authoritative servers and removed afterwards, even on failure.
// The CA's problem documents become ApiError 502 with the CA's detail; the whole order is
// bounded by a deadline and honours the caller's AbortSignal.
import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { Agent } from "node:https";
import * as acme from "acme-client";
import type { Config } from "../../shared/config.ts";
import { ApiError } from "../../shared/errors.ts";
import type { Logger } from "../../shared/logger.ts";
import type { OutboundHttp } from "../../shared/net/outbound.ts";
import type { OutboundPolicy } from "../../shared/domain/net/outbound-policy.ts";
import type { AcmeIssuer, AcmeIssueRequest, IssuedCertificate } from "../../shared/verbs/certificates/acme-issuer.ts";
import { acmeAccountKey, putAcmeChallenge, removeAcmeChallenge } from "../../shared/verbs/certificates/acme-challenges.ts";
import { readOutboundPolicy } from "../../shared/verbs/integrations/outbound-policy.ts";
import { readAcmeDnsCredentials } from "../../shared/verbs/settings/acme-dns.ts";
import type { VerbContext } from "../../shared/verbs/verb-context.ts";
import { type Vault, VaultError } from "../../shared/vault/vault.ts";
import { CLOUDFLARE_API_URL, cloudflareProvider } from "./dns/cloudflare.ts";
import { challengeRecordName, type DnsProvider } from "./dns/provider.ts";
import { waitForTxt } from "./dns/propagation.ts";
import { rfc2136Provider } from "./dns/rfc2136.ts";

export const ACME_DEADLINE_MS = 120_000;
/** How long a recorded key authorization stays servable (the order's deadline, with margin). */
const CHALLENGE_TTL_MS = 10 * 60_000;
const DOMAIN = /^(\*\.)?(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export interface AcmeIssuerOptions {
  config: Pick<
    Config,
    | "SVC_ACME_DIRECTORY_URL"
    | "SVC_ACME_STAGING_DIRECTORY_URL"
    | "SVC_ACME_EMAIL"
    | "SVC_ACME_CA_FILE"
    | "SVC_CLOUDFLARE_API_URL"
    | "SVC_ACME_DNS_PROPAGATION_S"
  >;
  vault: Vault;
  /** What the Cloudflare provider talks through (under the installation's outbound policy). */
  outbound: OutboundHttp;
  /** A system context on the shared database (the issuer's writes are the system's), carrying the vault that seals the account key. */
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
      if (!DOMAIN.test(domain))
        throw ApiError.validation([{ loc: ["body", "domain"], msg: `"${req.domain}" is not a DNS name.`, type: "value_error" }]);
      if (req.challenge === "http-01" && domain.startsWith("*."))
        throw ApiError.validation([
          { loc: ["body", "challenge"], msg: "A wildcard name needs the dns-01 challenge.", type: "value_error" },
        ]);
      const dns = req.challenge === "dns-01" ? await dnsProvider(options) : null;
      return bounded(options.deadlineMs ?? ACME_DEADLINE_MS, signal, (stop) => order(options, { ...req, domain }, dns, stop));
    },
  };
}

interface DnsSetup {
  provider: DnsProvider;
  policy: OutboundPolicy;
}

/** The provider of the ACME DNS settings; 422 naming the settings route when none is configured. */
async function dnsProvider(options: AcmeIssuerOptions): Promise<DnsSetup> {
  const ctx = options.context();
  const credentials = await readAcmeDnsCredentials({ ctx }).catch((err: unknown) => {
    if (err instanceof VaultError)
      throw new ApiError(
        "SERVICE_NOT_READY",
        `The ACME DNS credentials cannot be opened with this server's vault key (${err.reason}); set them again with PATCH /api/v1/settings/acme-dns.`,
      );
    throw err;
  });
  if (!credentials)
    throw ApiError.validation([
      {
        loc: ["body", "challenge"],
        msg: "dns-01 needs the ACME DNS settings: set a provider (cloudflare or rfc2136) and its credentials with PATCH /api/v1/settings/acme-dns.",
        type: "value_error",
      },
    ]);
  const policy = await readOutboundPolicy(ctx.db);
  const provider =
    credentials.provider === "cloudflare"
      ? cloudflareProvider({
          apiToken: credentials.api_token,
          baseUrl: options.config.SVC_CLOUDFLARE_API_URL ?? CLOUDFLARE_API_URL,
          outbound: options.outbound,
          policy,
        })
      : rfc2136Provider(credentials, { policy });
  return { provider, policy };
}

/** The dns-01 half of an order: TXT records put, waited for, and removed (each exactly once, even on failure). */
function dnsChallenges(options: AcmeIssuerOptions, { provider: dns, policy }: DnsSetup, signal: AbortSignal) {
  const presented = new Map<string, { fqdn: string; value: string }>();
  /** Removals in flight: a second ask for the same record joins the first instead of removing it twice. */
  const removing = new Map<string, Promise<void>>();
  const cleanup = (key: string): Promise<void> => {
    const running = removing.get(key);
    if (running) return running;
    const record = presented.get(key);
    if (!record) return Promise.resolve();
    const removal = (async () => {
      try {
        await dns.cleanup(record.fqdn, record.value);
        presented.delete(key);
      } catch (err) {
        options.logger.warn("acme dns-01 record not removed", {
          provider: dns.kind,
          record: record.fqdn,
          detail: err instanceof Error ? err.message : String(err),
        });
      } finally {
        removing.delete(key);
      }
    })();
    removing.set(key, removal);
    return removal;
  };
  const removeAll = async (): Promise<void> => {
    for (const key of [...presented.keys()]) await cleanup(key);
  };
  // A cancelled or timed-out order removes its records at once: the order itself winds down only when the
  // CA next answers, which may take long, and the record must not outlive the caller's wait by that much.
  signal.addEventListener("abort", () => void removeAll(), { once: true });
  return {
    async create(identifier: string, value: string): Promise<void> {
      const fqdn = challengeRecordName(identifier);
      await dns.present(fqdn, value, signal);
      presented.set(`${fqdn}\n${value}`, { fqdn, value });
      const seconds = options.config.SVC_ACME_DNS_PROPAGATION_S;
      if (seconds === 0) return;
      const servers = await dns.authoritative(fqdn);
      const result = await waitForTxt(servers, fqdn, value, { policy, timeoutMs: seconds * 1000, signal });
      if (!result.seen)
        options.logger.warn("acme dns-01 record not seen on every authoritative server; the CA decides", {
          provider: dns.kind,
          record: fqdn,
          missing: result.missing,
        });
    },
    remove: (identifier: string, value: string) => cleanup(`${challengeRecordName(identifier)}\n${value}`),
    /** Whatever is still there after the order (a removal that failed once is tried again). */
    removeAll,
  };
}

async function order(
  options: AcmeIssuerOptions,
  req: AcmeIssueRequest,
  dns: DnsSetup | null,
  stop: AbortSignal,
): Promise<IssuedCertificate> {
  const { config } = options;
  const directoryUrl =
    (req.staging ? config.SVC_ACME_STAGING_DIRECTORY_URL : config.SVC_ACME_DIRECTORY_URL) ??
    acme.directory.letsencrypt[req.staging ? "staging" : "production"];
  const ctx = options.context();
  const records = dns ? dnsChallenges(options, dns, stop) : null;
  try {
    const accountKey = await acmeAccountKey({
      ctx,
      input: { directoryUrl, create: async () => (await acme.crypto.createPrivateEcdsaKey("P-256")).toString() },
    });
    const client = new acme.Client({ directoryUrl, accountKey });
    // newAccount answers an existing key's account (200) with its URL; asking for it here means
    // acme-client's auto() finds the account instead of sending an empty update, which CAs refuse.
    const contact = config.SVC_ACME_EMAIL ? { contact: [`mailto:${config.SVC_ACME_EMAIL}`] } : {};
    await (client as unknown as { api: { createAccount(data: object): Promise<unknown> } }).api.createAccount({
      termsOfServiceAgreed: true,
      ...contact,
    });
    const [key, csr] = await acme.crypto.createCsr(
      { commonName: req.domain, altNames: [req.domain] },
      await acme.crypto.createPrivateEcdsaKey("P-256"),
    );
    const cert = await client.auto({
      csr,
      ...(config.SVC_ACME_EMAIL ? { email: config.SVC_ACME_EMAIL } : {}),
      termsOfServiceAgreed: true,
      challengePriority: [req.challenge],
      // The CA validates; a self-check would fetch our own name from here, which proves nothing.
      skipChallengeVerification: true,
      challengeCreateFn: async (authz, challenge, keyAuthorization) => {
        if (records) return records.create(authz.identifier.value, keyAuthorization);
        await putAcmeChallenge({ ctx: options.context(), input: { token: challenge.token, keyAuthorization, ttlMs: CHALLENGE_TTL_MS } });
      },
      challengeRemoveFn: async (authz, challenge, keyAuthorization) => {
        if (records) return records.remove(authz.identifier.value, keyAuthorization);
        await removeAcmeChallenge({ ctx: options.context(), input: { token: challenge.token } });
      },
    });
    return { cert_pem: cert, key_pem: toPkcs8(key.toString()) };
  } catch (err) {
    if (err instanceof ApiError) {
      options.logger.warn("acme issuance failed", { domain: req.domain, directory: directoryUrl, detail: String(err.detail) });
      throw err;
    }
    const detail = err instanceof Error ? err.message : String(err);
    options.logger.warn("acme issuance failed", { domain: req.domain, directory: directoryUrl, detail });
    throw new ApiError("UPSTREAM_FAILED", `The ACME CA did not issue a certificate for ${req.domain}: ${detail}`, {
      directory_url: directoryUrl,
    });
  } finally {
    await records?.removeAll();
  }
}

/** acme-client writes SEC1 ("EC PRIVATE KEY"); the seam promises PKCS#8. */
const toPkcs8 = (pem: string) => createPrivateKey(pem).export({ type: "pkcs8", format: "pem" }).toString();

/** Runs `run` under a deadline and the caller's signal; `run` gets a signal aborted when either ends the wait. */
function bounded<T>(ms: number, signal: AbortSignal | undefined, run: (stop: AbortSignal) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const end = (detail: string) => {
      reject(new ApiError("UPSTREAM_FAILED", detail));
      stop.abort();
    };
    const timer = setTimeout(() => end(`The ACME order did not finish within ${Math.round(ms / 1000)} s.`), ms);
    const abort = () => end("The ACME order was cancelled.");
    if (signal?.aborted) abort();
    signal?.addEventListener("abort", abort, { once: true });
    run(stop.signal)
      .then(resolve, reject)
      .finally(() => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", abort);
      });
  });
}
