// The seam between the certificates verbs (shared, edge-safe) and the HTTPS server of a Node entry:
// Deps.tls is present only in a process that serves HTTPS (SVC_TLS=on, runtime/tls/). Activating or
// renewing the active certificate hands its PEMs to reload(); other processes hear of it through the
// `certificates` NOTIFY channel and reload from the database (runtime/tls/tls-worker.ts).
export interface TlsReloader {
  /**
   * Presents `certPem` (leaf first, then its chain) with `keyPem` on every new TLS connection, without a
   * restart. Resolves false (and logs why) when the server refused them or is not listening yet.
   */
  reload(certPem: string, keyPem: string): Promise<boolean>;
}

/** The NOTIFY channel on which activation and renewal of the active certificate are announced. */
export const CERTIFICATES_CHANNEL = "certificates";
