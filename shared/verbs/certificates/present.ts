// The certificates row as the API answers it (CertificateRead; the detail adds cert_pem). The key is
// never part of an answer, sealed or not.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { certificates } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { CertificateDetailShape, CertificateShape } from "../../schemas/certificates.ts";

/** Certificates are administration (reference: all admin). */
export const CERTIFICATES_SCOPE = "admin:*";

export type CertificateRow = typeof certificates.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentCertificate(r: CertificateRow): CertificateShape {
  return {
    id: r.id,
    domain: r.domain,
    type: r.type as CertificateShape["type"],
    expires_at: r.expires_at.toISOString(),
    auto_renew: r.auto_renew,
    is_active: r.is_active,
    acme_challenge: (r.acme_challenge ?? null) as CertificateShape["acme_challenge"],
    acme_staging: r.acme_staging,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    subject: r.subject,
    issuer: r.issuer,
    san: r.san,
    fingerprint_sha256: r.fingerprint_sha256,
    not_before: iso(r.not_before),
    last_renewed_at: iso(r.last_renewed_at),
    renew_error: r.renew_error,
  };
}

export function presentDetail(r: CertificateRow): CertificateDetailShape {
  return { ...presentCertificate(r), cert_pem: r.cert_pem };
}

/** The row, locked for update when `lock`; 404 "Certificate <id> was not found." otherwise. */
export async function requireCertificate(db: Db, id: number, lock = false): Promise<CertificateRow> {
  const query = db.select().from(certificates).where(eq(certificates.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw ApiError.notFound("Certificate", id);
  return row;
}
