// [certificates] /certificates*: list, create (selfsigned | imported | letsencrypt), read (with cert_pem,
// never the key), change, delete, activate and renew (spec/catalogue.tsv, group certificates, docs/certificates.md).
import type { Hono } from "hono";
import {
  ActivateAnswer,
  CertificateCreateBody,
  CertificateDetail,
  CertificateList,
  CertificateListQuery,
  CertificateRead,
  CertificateUpdateBody,
  Deleted,
} from "../../../shared/schemas/certificates.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { activateCertificate } from "../../../shared/verbs/certificates/activate-certificate.ts";
import { deleteCertificate, updateCertificate } from "../../../shared/verbs/certificates/change-certificate.ts";
import { createCertificate } from "../../../shared/verbs/certificates/create-certificate.ts";
import { getCertificate, listCertificates } from "../../../shared/verbs/certificates/read-certificates.ts";
import { renewCertificate } from "../../../shared/verbs/certificates/renew-certificate.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const V1 = "/api/v1/certificates";
const CertParam = IdParam("cert_id");
const tag = "certificates";

export function certificateRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: V1,
      tag,
      scope: listCertificates.scope,
      query: CertificateListQuery,
      response: { schema: CertificateList },
      summary: "List certificates (never a key)",
      description:
        "The list envelope; sort expires_at (default), domain, created_at, id; filters type and domain (exact); q searches the domain.",
    },
    async (c, { query, reply }) => reply(await listCertificates({ ctx: verbContext(c), input: { query } })),
  );

  route(
    app,
    {
      method: "post",
      path: V1,
      tag,
      scope: createCertificate.scope,
      body: CertificateCreateBody,
      response: { status: 201, schema: CertificateRead },
      errors: [502, 503],
      summary: "Create a certificate: self-signed (default), imported, or issued over ACME (letsencrypt)",
      description:
        "selfsigned: a P-256 key and a 365-day certificate naming the domain (SAN dNSName, or iPAddress for an IP) are generated. " +
        "imported: cert_pem (leaf first, then each issuer) and key_pem (PKCS#8, unencrypted) are required and checked: every certificate parses, each is issued and signed by the next, " +
        "the key is the leaf's, the leaf is valid now and one of its SANs covers the domain; any failure is a 422 naming the field and the reason. " +
        "letsencrypt: an ACME order for the domain (challenge http-01 or dns-01, use_staging), 502 with the CA's detail when it refuses, 503 where this process has no ACME client (the edge). " +
        "The key is sealed by the vault (503 when the vault cannot write) and never answered.",
    },
    async (c, { body, reply }) => {
      const deps = c.get("deps");
      return reply(await createCertificate({ ctx: verbContext(c), input: { body, acme: deps.acme, signal: c.req.raw.signal } }), 201);
    },
  );

  route(
    app,
    {
      method: "get",
      path: `${V1}/:cert_id`,
      tag,
      scope: getCertificate.scope,
      params: CertParam,
      response: { schema: CertificateDetail },
      summary: "One certificate with its chain (cert_pem), never its key",
    },
    async (c, { params, reply }) => reply(await getCertificate({ ctx: verbContext(c), input: { id: params.cert_id } })),
  );

  route(
    app,
    {
      method: "put",
      path: `${V1}/:cert_id`,
      tag,
      scope: updateCertificate.scope,
      params: CertParam,
      body: CertificateUpdateBody,
      response: { schema: CertificateRead },
      errors: [503],
      summary: "Change auto_renew, or replace an imported certificate's chain and/or key",
      description:
        "Only the keys given change. cert_pem and key_pem are taken for imported certificates only and are checked as on upload; when only one is sent it is checked against the stored other half. " +
        "Replacing the active certificate's material reloads the HTTPS server.",
    },
    async (c, { params, body, reply }) => {
      const deps = c.get("deps");
      return reply(await updateCertificate({ ctx: verbContext(c), input: { id: params.cert_id, body, tls: deps.tls } }));
    },
  );

  route(
    app,
    {
      method: "delete",
      path: `${V1}/:cert_id`,
      tag,
      scope: deleteCertificate.scope,
      params: CertParam,
      response: { schema: Deleted },
      summary: "Delete a certificate that is not the active one",
      description:
        'Answers {"detail":"deleted"} as the reference does. The active certificate is refused with 409: activate another one first.',
    },
    async (c, { params, reply }) => reply(await deleteCertificate({ ctx: verbContext(c), input: { id: params.cert_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: `${V1}/:cert_id/activate`,
      tag,
      scope: activateCertificate.scope,
      params: CertParam,
      response: { schema: ActivateAnswer },
      summary: "Make this the certificate HTTPS presents, reloading the server without a restart",
      description:
        "One certificate is active at a time. This process's HTTPS server (SVC_TLS=on) presents it on new connections at once; other processes load it on notification. " +
        "A reload that fails is not an error: 200 with reloaded false (audited as partial).",
    },
    async (c, { params, reply }) => {
      const deps = c.get("deps");
      return reply(await activateCertificate({ ctx: verbContext(c), input: { id: params.cert_id, tls: deps.tls } }));
    },
  );

  route(
    app,
    {
      method: "post",
      path: `${V1}/:cert_id/renew`,
      tag,
      scope: renewCertificate.scope,
      params: CertParam,
      response: { schema: CertificateRead },
      errors: [502, 503],
      summary: "Renew now: a new key and certificate (selfsigned) or a new ACME order (letsencrypt)",
      description:
        "An imported certificate cannot be renewed (422: upload its successor). A failed ACME order answers the CA's error (502) and is kept in renew_error. " +
        "Renewing the active certificate reloads the HTTPS server.",
    },
    async (c, { params, reply }) => {
      const deps = c.get("deps");
      const renewed = await renewCertificate({
        ctx: verbContext(c),
        input: { id: params.cert_id, acme: deps.acme, tls: deps.tls, signal: c.req.raw.signal },
      });
      return reply(renewed.certificate);
    },
  );
}
