// PUT /certificates/{id} (auto_renew; an imported certificate's chain and key replaced, checked as on
// upload, against the stored half when only one is sent) and DELETE /certificates/{id}, which refuses
// the active certificate: HTTPS presents it, so another must be activated first.
import { eq } from "drizzle-orm";
import { certificates } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { CertificateShape, CertificateUpdate } from "../../schemas/certificates.ts";
import { defineVerb } from "../verb.ts";
import { presentActive } from "./activate-certificate.ts";
import { importedMaterial, storedMaterial } from "./material.ts";
import { CERTIFICATES_SCOPE, presentCertificate, requireCertificate } from "./present.ts";
import { openKey } from "./read-certificates.ts";
import type { TlsReloader } from "./tls-reloader.ts";
import { vaultOf } from "../verb-context.ts";

export interface UpdateCertificateInput {
  id: number;
  body: CertificateUpdate;
  tls?: TlsReloader | undefined;
}

export const updateCertificate = defineVerb<UpdateCertificateInput, CertificateShape>(
  { scope: CERTIFICATES_SCOPE },
  async (s, { id, body, tls }) => {
    const vault = vaultOf(s.ctx);
    const row = await requireCertificate(s.tx, id, true);
    const replacing = body.cert_pem != null || body.key_pem != null;
    if (replacing && row.type !== "imported") {
      const name = body.cert_pem != null ? "cert_pem" : "key_pem";
      throw ApiError.validation([
        {
          loc: ["body", name],
          msg: `Certificate ${id} is ${row.type}: its key and chain are made here (POST /certificates/${id}/renew); only an imported certificate takes an upload.`,
          type: "value_error",
        },
      ]);
    }
    const material = replacing
      ? await importedMaterial({
          cert_pem: body.cert_pem ?? row.cert_pem,
          key_pem: body.key_pem ?? (await openKey(vault, row)),
          domain: row.domain,
          now: s.now,
        })
      : undefined;
    const [after] = await s.tx
      .update(certificates)
      .set({
        ...(body.auto_renew !== undefined ? { auto_renew: body.auto_renew } : {}),
        ...(material ? { ...(await storedMaterial(s, vault, id, material)), warned_days: null, renew_error: null } : {}),
        updated_at: s.now,
      })
      .where(eq(certificates.id, id))
      .returning();
    const presented = material && after!.is_active ? await presentActive(s, vault, tls, after!) : undefined;
    const before = presentCertificate(row);
    const shape = presentCertificate(after!);
    s.audit({
      action: "certificate.update",
      category: "certificates",
      entity_type: "certificate",
      entity_id: id,
      diff: { before, after: shape, replaced_material: material !== undefined, ...(presented ? { reloaded: presented.reloaded } : {}) },
    });
    return shape;
  },
);

export const deleteCertificate = defineVerb<{ id: number }, { detail: "deleted" }>({ scope: CERTIFICATES_SCOPE }, async (s, { id }) => {
  const row = await requireCertificate(s.tx, id, true);
  if (row.is_active)
    throw ApiError.conflict(
      `Certificate ${id} (${row.domain}) is the active certificate: the HTTPS server presents it. Activate another certificate first (POST /api/v1/certificates/{cert_id}/activate), then delete this one.`,
    );
  await s.tx.delete(certificates).where(eq(certificates.id, id));
  s.audit({
    action: "certificate.delete",
    category: "certificates",
    level: "warning",
    entity_type: "certificate",
    entity_id: id,
    diff: { before: presentCertificate(row) },
  });
  return { detail: "deleted" };
});
