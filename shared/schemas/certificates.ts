// Request and answer shapes of /certificates* (spec/catalogue.tsv, group certificates, docs/architecture.md, API contracts):
// the list envelope of CertificateRead, the detail adding cert_pem (never the key), the activate answer.
import * as v from "valibot";
import { listQuery, listResponse, TextFilter } from "./list-query.ts";
import { writeBody } from "./fields.ts";

export const CERTIFICATE_TYPES = ["selfsigned", "imported", "letsencrypt"] as const;
export const ACME_CHALLENGES = ["http-01", "dns-01"] as const;

// A DNS name (labels of letters, digits, hyphens; a leading *. for wildcards) or an IPv4/IPv6 address.
const Domain = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.minLength(1, "A domain is required."),
  v.maxLength(253, "A domain has at most 253 characters."),
  v.regex(
    /^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.?$|^[0-9a-f:.]+$/,
    "Must be a DNS name (a.example.com, *.example.com) or an IP address.",
  ),
);
// Large enough for a leaf, two intermediates and an RSA-4096 key; bounded so a body cannot be a megabyte of PEM.
const Pem = (what: string) =>
  v.pipe(v.string(), v.maxLength(65_536, `${what} has at most 65536 characters.`), v.minLength(1, `${what} is empty.`));

export const CertificateCreateBody = writeBody({
  domain: Domain,
  type: v.optional(v.picklist(CERTIFICATE_TYPES, `Must be one of: ${CERTIFICATE_TYPES.join(", ")}.`), "selfsigned"),
  auto_renew: v.optional(v.boolean(), true),
  cert_pem: v.optional(v.nullable(Pem("cert_pem"))),
  key_pem: v.optional(v.nullable(Pem("key_pem"))),
  challenge: v.optional(v.picklist(ACME_CHALLENGES, "Must be http-01 or dns-01."), "http-01"),
  use_staging: v.optional(v.boolean(), false),
});
export type CertificateCreate = v.InferOutput<typeof CertificateCreateBody>;

export const CertificateUpdateBody = writeBody({
  auto_renew: v.optional(v.boolean()),
  cert_pem: v.optional(v.nullable(Pem("cert_pem"))),
  key_pem: v.optional(v.nullable(Pem("key_pem"))),
});
export type CertificateUpdate = v.InferOutput<typeof CertificateUpdateBody>;

export const CertificateRead = v.object({
  id: v.number(),
  domain: v.string(),
  type: v.picklist(CERTIFICATE_TYPES),
  expires_at: v.string(),
  auto_renew: v.boolean(),
  is_active: v.boolean(),
  acme_challenge: v.nullable(v.picklist(ACME_CHALLENGES)),
  acme_staging: v.boolean(),
  created_at: v.string(),
  updated_at: v.string(),
  // Ours, beside the reference's fields: what the certificate says of itself and how renewal went.
  subject: v.nullable(v.string()),
  issuer: v.nullable(v.string()),
  san: v.array(v.string()),
  fingerprint_sha256: v.nullable(v.string()),
  not_before: v.nullable(v.string()),
  last_renewed_at: v.nullable(v.string()),
  renew_error: v.nullable(v.string()),
});
export type CertificateShape = v.InferInput<typeof CertificateRead>;

export const CertificateDetail = v.object({ ...CertificateRead.entries, cert_pem: v.string() });
export type CertificateDetailShape = v.InferInput<typeof CertificateDetail>;

export const CERTIFICATE_SORTS = ["expires_at", "domain", "created_at", "id"] as const;
export const CertificateListQuery = listQuery(CERTIFICATE_SORTS, {
  type: v.optional(v.picklist(CERTIFICATE_TYPES, `Must be one of: ${CERTIFICATE_TYPES.join(", ")}.`)),
  domain: TextFilter,
});
export const CertificateList = listResponse(CertificateRead);

export const ActivateAnswer = v.object({
  certificate: CertificateRead,
  written: v.pipe(
    v.boolean(),
    v.description("Whether the certificate was recorded as the active one (the database is where every process reads it from)."),
  ),
  reloaded: v.pipe(
    v.boolean(),
    v.description("Whether this process's HTTPS server now presents it; false when TLS is off here or the reload failed (see detail)."),
  ),
  detail: v.string(),
});

export const Deleted = v.object({ detail: v.literal("deleted") });
