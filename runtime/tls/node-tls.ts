// Deps.tls of a Node process serving HTTPS (runtime/tls/https-server.ts): setSecureContext on the
// listener, which every new connection then uses; open connections keep what they shook hands with.
import { createHash, X509Certificate } from "node:crypto";
import type { Server as HttpsServer } from "node:https";
import type { Logger } from "../../shared/logger.ts";
import type { TlsReloader } from "../../shared/verbs/certificates/tls-reloader.ts";

/** Deps.tls of a Node process: reloads once the HTTPS server listens, and says which leaf it presents. */
export class NodeTls implements TlsReloader {
  #server: HttpsServer | undefined;
  #fingerprint: string | undefined;
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** The SHA-256 fingerprint (hex) of the leaf presented now, if serving. */
  get fingerprint(): string | undefined {
    return this.#fingerprint;
  }

  attach(server: HttpsServer, certPem: string): void {
    this.#server = server;
    this.#fingerprint = leafFingerprint(certPem);
  }

  async reload(certPem: string, keyPem: string): Promise<boolean> {
    if (!this.#server) {
      this.#logger.warn("TLS reload skipped: the HTTPS server is not listening yet");
      return false;
    }
    try {
      this.#server.setSecureContext({ cert: certPem, key: keyPem });
      this.#fingerprint = leafFingerprint(certPem);
      this.#logger.info("TLS certificate reloaded", { fingerprint_sha256: this.#fingerprint });
      return true;
    } catch (e) {
      this.#logger.error("TLS certificate reload failed; the previous certificate stays", { error: (e as Error).message });
      return false;
    }
  }
}

export function leafFingerprint(certPem: string): string {
  return createHash("sha256").update(new X509Certificate(certPem).raw).digest("hex");
}
