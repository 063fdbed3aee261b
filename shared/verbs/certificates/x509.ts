// The X.509 work of the certificates group, on WebCrypto through @peculiar/x509 (edge-safe, no node:):
// self-signed generation (P-256), reading a PEM chain (names, expiry, fingerprint), and checking an
// uploaded certificate and key (the PEM parses, the chain is in order and signed link by link, the key
// is the leaf's, the leaf is valid now and names the domain). Every refusal is a 422 naming the field.
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import { ApiError } from "../../errors.ts";

const EC_P256 = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
export const SELF_SIGNED_DAYS = 365;
const DAY_MS = 86_400_000;

export interface CertificateFacts {
  subject: string;
  issuer: string;
  san: string[];
  fingerprint_sha256: string;
  not_before: Date;
  expires_at: Date;
}

export interface KeyAndCertificate {
  cert_pem: string;
  key_pem: string;
}

const invalid = (field: "cert_pem" | "key_pem" | "domain", msg: string) =>
  ApiError.validation([{ loc: ["body", field], msg, type: "value_error" }]);

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
export const isIpAddress = (domain: string) => IPV4.test(domain) || (domain.includes(":") && /^[0-9a-f:.]+$/i.test(domain));

function randomSerial(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = bytes[0]! & 0x7f; // positive, as RFC 5280 asks
  return hex(bytes.buffer);
}

/** A P-256 key and a self-signed certificate naming `domain` (SAN dNSName, or iPAddress for an IP). */
export async function generateSelfSigned(domain: string, now: Date, days = SELF_SIGNED_DAYS): Promise<KeyAndCertificate> {
  const keys = (await crypto.subtle.generateKey(EC_P256, true, ["sign", "verify"])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: [{ CN: [domain] }],
    // A minute back, so a peer whose clock is slightly behind does not see "not yet valid".
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + days * DAY_MS),
    keys,
    signingAlgorithm: EC_P256,
    extensions: [
      new x509.SubjectAlternativeNameExtension([isIpAddress(domain) ? { type: "ip", value: domain } : { type: "dns", value: domain }]),
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    ],
  });
  const pkcs8 = await crypto.subtle.exportKey("pkcs8", keys.privateKey);
  return { cert_pem: `${cert.toString("pem")}\n`, key_pem: `${x509.PemConverter.encode(pkcs8, "PRIVATE KEY")}\n` };
}

/** The certificates of a PEM bundle, leaf first; throws a 422 on `field` when it holds none or one does not parse. */
export function parseChain(pem: string, field: "cert_pem" = "cert_pem"): x509.X509Certificate[] {
  const blocks = pem.match(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g) ?? [];
  const certs = blocks.filter((b) => b.startsWith("-----BEGIN CERTIFICATE-----"));
  if (certs.length === 0)
    throw invalid(field, "Not a PEM certificate: expected one or more -----BEGIN CERTIFICATE----- blocks (leaf first).");
  return certs.map((block, i) => {
    try {
      return new x509.X509Certificate(block);
    } catch (e) {
      throw invalid(field, `Certificate ${i + 1} of the PEM does not parse as X.509: ${(e as Error).message}`);
    }
  });
}

function names(cert: x509.X509Certificate): string[] {
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  if (!san) return [];
  return san.names.items.filter((n) => n.type === "dns" || n.type === "ip").map((n) => n.value.toLowerCase());
}

/** What the API and the expiry work need of a stored chain (its leaf). */
export async function certificateFacts(pem: string): Promise<CertificateFacts> {
  const leaf = parseChain(pem)[0]!;
  return {
    subject: leaf.subject,
    issuer: leaf.issuer,
    san: names(leaf),
    fingerprint_sha256: hex(await leaf.getThumbprint("SHA-256")),
    not_before: leaf.notBefore,
    expires_at: leaf.notAfter,
  };
}

/** Whether `name` (a SAN entry, possibly *.example.com) covers `domain`: a wildcard stands for one whole left label. */
export function nameCovers(name: string, domain: string): boolean {
  const d = domain.toLowerCase().replace(/\.$/, "");
  const n = name.toLowerCase().replace(/\.$/, "");
  if (n === d) return true;
  if (!n.startsWith("*.")) return false;
  const rest = n.slice(2);
  const dot = d.indexOf(".");
  return dot > 0 && d.slice(dot + 1) === rest;
}

/** The WebCrypto import parameters for a private key of the leaf's public-key algorithm. */
function importParams(leaf: x509.X509Certificate): RsaHashedImportParams | EcKeyImportParams | Algorithm {
  const alg = leaf.publicKey.algorithm as Algorithm & { namedCurve?: string };
  if (alg.name === "ECDSA" || alg.name === "ECDH") return { name: "ECDSA", namedCurve: alg.namedCurve ?? "P-256" };
  if (alg.name === "RSASSA-PKCS1-v1_5" || alg.name === "RSA-PSS" || alg.name === "RSA-OAEP")
    return { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
  if (alg.name === "Ed25519") return { name: "Ed25519" };
  throw invalid("cert_pem", `The certificate's key algorithm ${alg.name} is not supported (RSA, ECDSA P-256/P-384/P-521 and Ed25519 are).`);
}

/** The public half of a JWK (the members that name the public key of each key type). */
const PUBLIC_MEMBERS: Record<string, string[]> = { RSA: ["n", "e"], EC: ["crv", "x", "y"], OKP: ["crv", "x"] };

function publicPart(jwk: JsonWebKey): string {
  const members = PUBLIC_MEMBERS[jwk.kty ?? ""] ?? [];
  return members.map((m) => `${m}=${(jwk as Record<string, unknown>)[m]}`).join("&");
}

/** The single PKCS#8 block of `pem` (what is stored); other key encodings are refused with the conversion to run. */
export function privateKeyBlock(pem: string): string {
  const blocks = pem.match(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g) ?? [];
  const keys = blocks.filter((b) => /^-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(b));
  if (keys.length !== 1)
    throw invalid(
      "key_pem",
      keys.length === 0
        ? "Not a PEM private key: expected one -----BEGIN PRIVATE KEY----- block."
        : "Expected exactly one private key in key_pem.",
    );
  const block = keys[0]!;
  if (block.startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
    throw invalid(
      "key_pem",
      "The private key is encrypted; upload it unencrypted (openssl pkcs8 -topk8 -nocrypt). It is sealed by the vault here.",
    );
  if (!block.startsWith("-----BEGIN PRIVATE KEY-----"))
    throw invalid(
      "key_pem",
      `${block.slice(11, block.indexOf("-----", 11))} is not accepted; convert it to PKCS#8 with: openssl pkcs8 -topk8 -nocrypt -in key.pem`,
    );
  return block;
}

function pkcs8Of(pem: string): ArrayBuffer {
  try {
    return x509.PemConverter.decodeFirst(privateKeyBlock(pem));
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw invalid("key_pem", `The private key PEM does not decode: ${(e as Error).message}`);
  }
}

/**
 * Checks an upload: the chain parses and is in order (each certificate issued and signed by the next),
 * the key is PKCS#8 and is the leaf's (the public halves compared), the leaf is valid at `now`, and
 * `domain` is one of its SAN names (a wildcard covering it counts). Answers the leaf's facts.
 */
export async function checkUpload(input: { cert_pem: string; key_pem: string; domain: string; now: Date }): Promise<CertificateFacts> {
  const chain = parseChain(input.cert_pem);
  const leaf = chain[0]!;
  for (let i = 0; i + 1 < chain.length; i++) {
    const child = chain[i]!;
    const parent = chain[i + 1]!;
    const signed =
      child.issuer === parent.subject && (await child.verify({ publicKey: parent.publicKey, signatureOnly: true }).catch(() => false));
    if (!signed)
      throw invalid(
        "cert_pem",
        `The chain is not in order: certificate ${i + 1} (${child.subject}) is not issued and signed by certificate ${i + 2} (${parent.subject}). Put the leaf first, then each issuer.`,
      );
  }
  if (leaf.notAfter.getTime() <= input.now.getTime())
    throw invalid("cert_pem", `The certificate expired on ${leaf.notAfter.toISOString()}.`);
  if (leaf.notBefore.getTime() > input.now.getTime() + 5 * 60_000)
    throw invalid("cert_pem", `The certificate is not valid before ${leaf.notBefore.toISOString()}.`);
  const params = importParams(leaf);
  let privateJwk: JsonWebKey;
  try {
    const key = await crypto.subtle.importKey("pkcs8", pkcs8Of(input.key_pem), params, true, ["sign"]);
    privateJwk = await crypto.subtle.exportKey("jwk", key);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw invalid("key_pem", `The private key is not a ${params.name} key the certificate could belong to: ${(e as Error).message}`);
  }
  const publicJwk = await crypto.subtle.exportKey("jwk", await leaf.publicKey.export(params, ["verify"]));
  if (publicPart(privateJwk) !== publicPart(publicJwk))
    throw invalid("key_pem", "The private key does not match the certificate's public key (the leaf, the first certificate of cert_pem).");
  const facts = await certificateFacts(input.cert_pem);
  if (!facts.san.some((n) => nameCovers(n, input.domain)))
    throw invalid(
      "domain",
      `The certificate does not name ${input.domain}: its subject alternative names are ${facts.san.length ? facts.san.join(", ") : "none"}.`,
    );
  return facts;
}
