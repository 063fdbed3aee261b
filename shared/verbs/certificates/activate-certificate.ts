// POST /certificates/{id}/activate: makes this the one active certificate (the partial unique index
// certificates_active_idx allows one) and has this process's HTTPS server present it at once; the other
// processes hear of it on the `certificates` channel (on commit) and reload from the database. A reload
// that fails is no error: 200 with reloaded false, audited as "partial" (spec/catalogue.tsv, group certificates).
import { and, eq, ne, sql } from "drizzle-orm";
import { certificates } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { CertificateShape } from "../../schemas/certificates.ts";
import type { Vault } from "../../vault/vault.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { CERTIFICATES_SCOPE, type CertificateRow, presentCertificate, requireCertificate } from "./present.ts";
import { openKey } from "./read-certificates.ts";
import type { TlsReloader } from "./tls-reloader.ts";
import { vaultOf } from "../verb-context.ts";

export interface ActivateAnswer {
  certificate: CertificateShape;
  written: boolean;
  reloaded: boolean;
  detail: string;
}

export interface Presented {
  reloaded: boolean;
  detail: string;
}

/**
 * Hands the (now active) row to this process's HTTPS server and announces it to the others. Called
 * last in the writing transaction: the NOTIFY goes out on commit.
 */
export async function presentActive(s: VerbScope, vault: Vault, tls: TlsReloader | undefined, row: CertificateRow): Promise<Presented> {
  s.emit("certificates", { type: "active", id: row.id, fingerprint_sha256: row.fingerprint_sha256 });
  if (!tls)
    return {
      reloaded: false,
      detail:
        "This process does not serve HTTPS (SVC_TLS is off here); every process serving HTTPS loads it from the database on notification.",
    };
  const ok = await openKey(vault, row).then(
    (key) => tls.reload(row.cert_pem, key),
    () => false,
  );
  return ok
    ? { reloaded: true, detail: "The HTTPS server presents it on new connections." }
    : {
        reloaded: false,
        detail:
          "Recorded as active, but the HTTPS server could not load it (see the server log); it keeps presenting the previous certificate.",
      };
}

export const activateCertificate = defineVerb<{ id: number; tls?: TlsReloader | undefined }, ActivateAnswer>(
  { scope: CERTIFICATES_SCOPE },
  async (s, { id, tls }) => {
    const vault = vaultOf(s.ctx);
    // Activations one at a time: two at once would each find the same previous one and the second would
    // meet the unique index instead of replacing the first's choice.
    await s.tx.execute(sql`select pg_advisory_xact_lock(hashtext('certificates.activate'))`);
    const target = await requireCertificate(s.tx, id, true);
    if (target.expires_at.getTime() <= s.now.getTime())
      throw ApiError.validation([
        {
          loc: ["path", "cert_id"],
          msg: `Certificate ${id} expired on ${target.expires_at.toISOString()}: clients would refuse it. Renew it (POST /api/v1/certificates/${id}/renew) or upload its successor first.`,
          type: "value_error",
        },
      ]);
    const previous = await s.tx
      .select({ id: certificates.id })
      .from(certificates)
      .where(and(eq(certificates.is_active, true), ne(certificates.id, id)))
      .for("update");
    if (previous.length > 0)
      await s.tx
        .update(certificates)
        .set({ is_active: false, updated_at: s.now })
        .where(and(eq(certificates.is_active, true), ne(certificates.id, id)));
    const [row] = await s.tx.update(certificates).set({ is_active: true, updated_at: s.now }).where(eq(certificates.id, id)).returning();
    const presented = await presentActive(s, vault, tls, row!);
    const outcome = presented.reloaded ? "success" : tls ? "partial" : "recorded";
    s.audit({
      action: "certificate.activate",
      category: "certificates",
      level: outcome === "partial" ? "warning" : "info",
      entity_type: "certificate",
      entity_id: id,
      diff: {
        outcome,
        was_active: target.is_active,
        previous_active: previous.map((p) => p.id),
        reloaded: presented.reloaded,
        fingerprint_sha256: row!.fingerprint_sha256,
      },
    });
    return { certificate: presentCertificate(row!), written: true, reloaded: presented.reloaded, detail: presented.detail };
  },
);
