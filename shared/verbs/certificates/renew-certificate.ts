// POST /certificates/{id}/renew, and the auto-renew job's renewal: a self-signed certificate gets a new
// key and certificate, a letsencrypt one a new ACME order; an imported one cannot be renewed here (422:
// upload its successor). The new material replaces the row's (same id, so the key's seal context holds),
// the expiry warnings start over, and an active certificate is presented again at once. A failed order
// is recorded in renew_error (and audited) before the error is answered.
import { eq } from "drizzle-orm";
import { certificates } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { CertificateShape } from "../../schemas/certificates.ts";
import { defineVerb } from "../verb.ts";
import { vaultOf, type VerbContext } from "../verb-context.ts";
import type { AcmeChallengeType, AcmeIssuer } from "./acme-issuer.ts";
import { presentActive } from "./activate-certificate.ts";
import { acmeMaterial, type Material, selfSignedMaterial, storedMaterial } from "./material.ts";
import { CERTIFICATES_SCOPE, presentCertificate, requireCertificate } from "./present.ts";
import type { TlsReloader } from "./tls-reloader.ts";

export interface RenewInput {
  id: number;
  acme?: AcmeIssuer | undefined;
  tls?: TlsReloader | undefined;
  signal?: AbortSignal | undefined;
  /** Who asked: the route (manual) or the auto-renew job (schedule), as the audit entry says. */
  trigger?: "manual" | "schedule";
}

export interface Renewed {
  certificate: CertificateShape;
  /** Whether this process's HTTPS server presents the renewed certificate (undefined: it is not the active one). */
  reloaded?: boolean;
}

type Prepared = { material: Material } | { error: Error };

async function renewMaterial(ctx: VerbContext, { id, acme, signal }: RenewInput): Promise<Prepared> {
  const row = await requireCertificate(ctx.db, id);
  if (row.type === "imported")
    throw ApiError.validation([
      {
        loc: ["path", "cert_id"],
        msg: `Certificate ${id} is imported: it cannot be renewed here. Upload its successor (PUT /api/v1/certificates/${id} with cert_pem and key_pem, or a new certificate).`,
        type: "value_error",
      },
    ]);
  try {
    if (row.type === "selfsigned") return { material: await selfSignedMaterial(row.domain, ctx.clock.now()) };
    return {
      material: await acmeMaterial(
        acme,
        { domain: row.domain, challenge: (row.acme_challenge ?? "http-01") as AcmeChallengeType, staging: row.acme_staging },
        signal,
      ),
    };
  } catch (e) {
    return { error: e instanceof Error ? e : new Error(String(e)) };
  }
}

export const renewCertificate = defineVerb<RenewInput, Renewed, Prepared>(
  { scope: CERTIFICATES_SCOPE, prepare: renewMaterial },
  async (s, { id, tls, trigger = "manual" }, prepared) => {
    const vault = vaultOf(s.ctx);
    const row = await requireCertificate(s.tx, id, true);
    if ("error" in prepared) {
      const message =
        prepared.error instanceof ApiError && typeof prepared.error.detail === "string" ? prepared.error.detail : prepared.error.message;
      await s.tx
        .update(certificates)
        .set({ renew_error: message.slice(0, 2000) })
        .where(eq(certificates.id, id));
      s.audit({
        action: "certificate.renew",
        category: "certificates",
        level: "warning",
        entity_type: "certificate",
        entity_id: id,
        diff: { outcome: "failed", trigger, error: message },
      });
      return s.refuse(prepared.error);
    }
    const [after] = await s.tx
      .update(certificates)
      .set({
        ...(await storedMaterial(s, vault, id, prepared.material)),
        last_renewed_at: s.now,
        renew_error: null,
        warned_days: null,
        updated_at: s.now,
      })
      .where(eq(certificates.id, id))
      .returning();
    const presented = after!.is_active ? await presentActive(s, vault, tls, after!) : undefined;
    s.audit({
      action: "certificate.renew",
      category: "certificates",
      entity_type: "certificate",
      entity_id: id,
      diff: {
        outcome: presented && !presented.reloaded && tls ? "partial" : "success",
        trigger,
        expires_before: row.expires_at.toISOString(),
        expires_at: after!.expires_at.toISOString(),
        reloaded: presented?.reloaded ?? null,
      },
    });
    return { certificate: presentCertificate(after!), ...(presented ? { reloaded: presented.reloaded } : {}) };
  },
);
