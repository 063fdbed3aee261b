// The seam between the certificates verbs (shared, edge-safe) and ACME issuance (Node only: the
// acme-client library and its crypto run in the Node entries). Deps.acme holds the implementation;
// where it is absent (the edge), `letsencrypt` certificates cannot be created or renewed and the verbs
// say so.
export type AcmeChallengeType = "http-01" | "dns-01";

export interface AcmeIssueRequest {
  /** The DNS name to certify (one name; wildcards need dns-01). */
  domain: string;
  challenge: AcmeChallengeType;
  /** Use the CA's staging directory (Let's Encrypt staging) instead of production. */
  staging: boolean;
}

export interface IssuedCertificate {
  /** Leaf followed by its chain, PEM. */
  cert_pem: string;
  /** The new private key, PKCS#8 PEM. */
  key_pem: string;
}

export interface AcmeIssuer {
  /**
   * Runs one ACME order to completion: account (created once and kept sealed by the vault), order,
   * the chosen challenge answered (http-01 through the acme_challenges table served at
   * /.well-known/acme-challenge/<token>; dns-01 through the ACME DNS settings), finalize, download.
   * Throws ApiError 502 with the CA's problem detail when the CA refuses, 422 when the request cannot
   * be met (dns-01 without DNS credentials, a wildcard over http-01).
   */
  issue(req: AcmeIssueRequest, signal?: AbortSignal): Promise<IssuedCertificate>;
}
