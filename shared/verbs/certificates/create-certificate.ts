// POST /certificates: a self-signed certificate generated here (P-256, 365 days), an uploaded one checked
// (chain, key, expiry, names), or one ordered over ACME (letsencrypt). The key and chain are made
// before the transaction; the row is written with its key sealed for its own id, and audited.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { certificates } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { CertificateCreate, CertificateShape } from "../../schemas/certificates.ts";
import { defineVerb } from "../verb.ts";
import { vaultOf, type VerbContext } from "../verb-context.ts";
import type { AcmeIssuer } from "./acme-issuer.ts";
import { acmeMaterial, importedMaterial, type Material, selfSignedMaterial, storedMaterial } from "./material.ts";
import { CERTIFICATES_SCOPE, presentCertificate } from "./present.ts";

export interface CreateCertificateInput {
  body: CertificateCreate;
  acme?: AcmeIssuer | undefined;
  signal?: AbortSignal | undefined;
}

const field = (name: string, msg: string) => ApiError.validation([{ loc: ["body", name], msg, type: "value_error" }]);

async function materialFor(ctx: VerbContext, { body, acme, signal }: CreateCertificateInput): Promise<Material> {
  const now = ctx.clock.now();
  if (body.type === "imported") {
    if (!body.cert_pem) throw field("cert_pem", "cert_pem is required for an imported certificate (the leaf first, then its chain).");
    if (!body.key_pem) throw field("key_pem", "key_pem is required for an imported certificate (the leaf's private key, PKCS#8 PEM).");
    return importedMaterial({ cert_pem: body.cert_pem, key_pem: body.key_pem, domain: body.domain, now });
  }
  for (const name of ["cert_pem", "key_pem"] as const)
    if (body[name]) throw field(name, `${name} is only taken for type imported; a ${body.type} certificate's key and chain are made here.`);
  if (body.type === "selfsigned") {
    if (body.domain.startsWith("*.")) throw field("domain", "A self-signed certificate names one host or address, not a wildcard.");
    return selfSignedMaterial(body.domain, now);
  }
  return acmeMaterial(acme, { domain: body.domain, challenge: body.challenge, staging: body.use_staging }, signal);
}

export const createCertificate = defineVerb<CreateCertificateInput, CertificateShape, Material>(
  { scope: CERTIFICATES_SCOPE, prepare: materialFor },
  async (s, { body }, material) => {
    const vault = vaultOf(s.ctx);
    // The id first: the key is sealed with a context naming its row.
    const [{ id }] = (await queryRows<{ id: number }>(
      s.tx,
      sql`select nextval(pg_get_serial_sequence('certificates', 'id'))::int as id`,
    )) as [{ id: number }];
    const acme = body.type === "letsencrypt";
    const [row] = await s.tx
      .insert(certificates)
      .values({
        id,
        domain: body.domain,
        type: body.type,
        auto_renew: body.auto_renew,
        acme_challenge: acme ? body.challenge : null,
        acme_staging: acme ? body.use_staging : false,
        ...(await storedMaterial(s, vault, id, material)),
        created_at: s.now,
        updated_at: s.now,
      })
      .returning();
    const shape = presentCertificate(row!);
    s.audit({ action: "certificate.create", category: "certificates", entity_type: "certificate", entity_id: id, diff: { after: shape } });
    return shape;
  },
);
