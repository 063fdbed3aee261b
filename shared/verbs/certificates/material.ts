// Where a certificate's key and chain come from, per type: generated (selfsigned), uploaded and
// checked (imported), or ordered over ACME (letsencrypt, Deps.acme). Runs outside any transaction (a
// verb's prepare): key generation and an ACME order are slow. storedMaterial turns the result into the
// row's columns, the key sealed by the vault for that row.
import type { Vault } from "../../vault/vault.ts";
import { ApiError } from "../../errors.ts";
import type { VerbScope } from "../verb.ts";
import { CERTIFICATE_KEY, sealSecret } from "../vault/secret-columns.ts";
import { assertVaultWritable } from "../vault/writable.ts";
import type { AcmeChallengeType, AcmeIssuer } from "./acme-issuer.ts";
import { type CertificateFacts, certificateFacts, checkUpload, generateSelfSigned, parseChain, privateKeyBlock } from "./x509.ts";

export interface Material {
  cert_pem: string;
  key_pem: string;
  facts: CertificateFacts;
}

/** The chain re-encoded certificate by certificate: whatever else the upload held (a key pasted into cert_pem, comments) is dropped. */
const normalisedChain = (pem: string) =>
  `${parseChain(pem)
    .map((c) => c.toString("pem"))
    .join("\n")}\n`;

export async function selfSignedMaterial(domain: string, now: Date): Promise<Material> {
  const made = await generateSelfSigned(domain, now);
  return { ...made, facts: await certificateFacts(made.cert_pem) };
}

export async function importedMaterial(input: { cert_pem: string; key_pem: string; domain: string; now: Date }): Promise<Material> {
  const facts = await checkUpload(input);
  return { cert_pem: normalisedChain(input.cert_pem), key_pem: `${privateKeyBlock(input.key_pem)}\n`, facts };
}

export function requireAcme(acme: AcmeIssuer | undefined): AcmeIssuer {
  if (!acme)
    throw new ApiError(
      "SERVICE_NOT_READY",
      "This process cannot issue Let's Encrypt certificates: ACME runs in the Node server only (the edge has no ACME client). Send the request to the Node server.",
    );
  return acme;
}

export async function acmeMaterial(
  acme: AcmeIssuer | undefined,
  req: { domain: string; challenge: AcmeChallengeType; staging: boolean },
  signal?: AbortSignal,
): Promise<Material> {
  const issued = await requireAcme(acme).issue(req, signal);
  return { cert_pem: normalisedChain(issued.cert_pem), key_pem: issued.key_pem, facts: await certificateFacts(issued.cert_pem) };
}

/** The columns a certificate's material fills, the key sealed for row `id` (503 when the vault may not write). */
export async function storedMaterial(s: VerbScope, vault: Vault, id: number, m: Material) {
  await assertVaultWritable(s.tx, vault, s.now);
  return {
    cert_pem: m.cert_pem,
    key_pem: await sealSecret(vault, CERTIFICATE_KEY, id, m.key_pem),
    subject: m.facts.subject,
    issuer: m.facts.issuer,
    san: m.facts.san,
    fingerprint_sha256: m.facts.fingerprint_sha256,
    not_before: m.facts.not_before,
    expires_at: m.facts.expires_at,
  };
}
