// GET /certificates (the list envelope, docs/architecture.md, API contracts) and GET /certificates/{id} (with cert_pem), and the
// active certificate with its key opened, for the HTTPS server of a Node entry (never an API answer).
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { certificates } from "../../db/schema/index.ts";
import type { CertificateDetailShape, CertificateShape } from "../../schemas/certificates.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import type { Vault } from "../../vault/vault.ts";
import { type ListPage, listPage } from "../resources/list.ts";
import { CERTIFICATE_KEY, openSecret } from "../vault/secret-columns.ts";
import { defineRead } from "../verb.ts";
import { CERTIFICATES_SCOPE, type CertificateRow, presentCertificate, presentDetail, requireCertificate } from "./present.ts";

const SPEC = {
  table: certificates,
  id: certificates.id,
  sortable: { expires_at: certificates.expires_at, domain: certificates.domain, created_at: certificates.created_at, id: certificates.id },
  search: [certificates.domain],
};

export type CertificateListQuery = ListParams & { type?: string | undefined; domain?: string | undefined };

export const listCertificates = defineRead<{ query: CertificateListQuery }, ListPage<CertificateShape>>(
  { scope: CERTIFICATES_SCOPE },
  (ctx, { query }) =>
    listPage<CertificateRow, CertificateShape>(
      ctx.db,
      SPEC,
      query,
      [
        query.type ? eq(certificates.type, query.type) : undefined,
        query.domain ? eq(certificates.domain, query.domain.toLowerCase()) : undefined,
      ],
      (rows) => rows.map(presentCertificate),
    ),
);

export const getCertificate = defineRead<{ id: number }, CertificateDetailShape>({ scope: CERTIFICATES_SCOPE }, async (ctx, { id }) =>
  presentDetail(await requireCertificate(ctx.db, id)),
);

export interface ServedCertificate {
  id: number;
  domain: string;
  cert_pem: string;
  key_pem: string;
  fingerprint_sha256: string | null;
}

/** The key of a row, opened by the vault (context certificates.key_pem:<id>). */
export async function openKey(vault: Vault, row: Pick<CertificateRow, "id" | "key_pem">): Promise<string> {
  return openSecret(vault, CERTIFICATE_KEY, row.id, row.key_pem);
}

/** The active certificate and its opened key, or undefined when none is active. */
export async function activeCertificate(db: Db, vault: Vault): Promise<ServedCertificate | undefined> {
  const [row] = await db.select().from(certificates).where(eq(certificates.is_active, true));
  if (!row) return undefined;
  return {
    id: row.id,
    domain: row.domain,
    cert_pem: row.cert_pem,
    key_pem: await openKey(vault, row),
    fingerprint_sha256: row.fingerprint_sha256,
  };
}
