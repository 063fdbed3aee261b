// HTTPS on a Node entry (SVC_TLS=on, docs/certificates.md): a second listener on SVC_HTTPS_PORT serving
// the same app with the active certificate from the database (its key opened by the vault). When no
// certificate is active at start, a self-signed one for SVC_TLS_DOMAIN is generated and activated (and
// logged). The certificate changes without a restart: Deps.tls.reload (this process's activate and
// renew) and the `certificates` channel (other processes') call server.setSecureContext, which every
// new connection uses; connections already open keep the certificate they shook hands with.
import type { Server as HttpServer } from "node:http";
import { createServer, type Server as HttpsServer } from "node:https";
import { serve } from "@hono/node-server";
import * as v from "valibot";
import { CertificateCreateBody } from "../../shared/schemas/certificates.ts";
import { activateCertificate } from "../../shared/verbs/certificates/activate-certificate.ts";
import { createCertificate } from "../../shared/verbs/certificates/create-certificate.ts";
import { activeCertificate, type ServedCertificate } from "../../shared/verbs/certificates/read-certificates.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import type { NodeRuntime } from "../node-deps.ts";
import { serverTimeouts } from "../serve.ts";
import { attachToLifespan } from "../serve.ts";
import { NodeTls } from "./node-tls.ts";
import { tlsWorker } from "./tls-worker.ts";

/** The active certificate, generating and activating a self-signed one for `domain` when none is. */
export async function ensureActiveCertificate(runtime: Pick<NodeRuntime, "deps" | "database">, domain: string): Promise<ServedCertificate> {
  const { deps } = runtime;
  const { db } = runtime.database;
  const ctx = () => systemContext({ db, clock: deps.clock, random: deps.random, vault: deps.vault });
  const found = await activeCertificate(db, deps.vault);
  if (found) return found;
  // SVC_TLS_DOMAIN passes the API's own rules for a domain (a bad one stops the start, naming it).
  const parsed = v.safeParse(CertificateCreateBody, { domain });
  if (!parsed.success) throw new Error(`SVC_TLS_DOMAIN ${JSON.stringify(domain)}: ${parsed.issues[0].message}`);
  const created = await createCertificate({ ctx: ctx(), input: { body: parsed.output } });
  try {
    await activateCertificate({ ctx: ctx(), input: { id: created.id } });
    deps.logger.warn("TLS: no active certificate; generated and activated a self-signed one", {
      certificate_id: created.id,
      domain,
      fingerprint_sha256: created.fingerprint_sha256,
      expires_at: created.expires_at,
    });
  } catch (e) {
    // Another process activated one at the same moment (one active certificate: the unique index); use it.
    deps.logger.warn("TLS: activating the generated certificate failed; reading the active one", { error: (e as Error).message });
  }
  const active = await activeCertificate(db, deps.vault);
  if (!active) throw new Error("TLS is on but no certificate could be activated");
  return active;
}

/** Listens for HTTPS on SVC_HTTPS_PORT (HOST) with the active certificate; `tls` then reloads this server. */
export async function listenHttps(
  runtime: NodeRuntime,
  fetch: (req: Request) => Response | Promise<Response>,
  tls: NodeTls,
): Promise<HttpsServer> {
  const { config, logger } = runtime.deps;
  const served = await ensureActiveCertificate(runtime, config.SVC_TLS_DOMAIN);
  const server = serve({
    fetch,
    port: config.SVC_HTTPS_PORT,
    hostname: config.HOST,
    createServer,
    serverOptions: {
      cert: served.cert_pem,
      key: served.key_pem,
      ...serverTimeouts(config),
    },
  }) as unknown as HttpsServer;
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  tls.attach(server, served.cert_pem);
  const address = server.address();
  logger.info("listening (https)", {
    port: typeof address === "object" && address ? address.port : config.SVC_HTTPS_PORT,
    certificate_id: served.id,
    domain: served.domain,
    fingerprint_sha256: tls.fingerprint,
  });
  return server;
}

/**
 * What an entry calls once its database is migrated (SVC_TLS=on): HTTPS listening within the process's
 * lifespan (drained with the HTTP listener), WebSocket upgrades on it too, and the `certificates`
 * listener. Exits the process with the reason when HTTPS cannot start: TLS was asked for.
 */
export async function startHttps(
  runtime: NodeRuntime,
  fetch: (req: Request) => Response | Promise<Response>,
  upgrades?: { attach(server: HttpServer): void },
): Promise<void> {
  const { tls, logger } = runtime.deps;
  if (!(tls instanceof NodeTls)) return;
  try {
    const server = await listenHttps(runtime, fetch, tls);
    attachToLifespan(runtime, server);
    // An https.Server emits `upgrade` exactly as an http.Server does.
    upgrades?.attach(server as unknown as HttpServer);
    await runtime.background.start(tlsWorker(runtime, tls));
  } catch (e) {
    logger.error("HTTPS could not start", { error: (e as Error).message, port: runtime.deps.config.SVC_HTTPS_PORT });
    process.exit(1);
  }
}
