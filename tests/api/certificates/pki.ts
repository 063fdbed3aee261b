// A small PKI made in the tests (WebCrypto through @peculiar/x509): a root CA, an intermediate and a
// leaf for a name, with whatever validity a case needs, as PEM.
import "reflect-metadata";
import * as x509 from "@peculiar/x509";

const EC = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const DAY = 86_400_000;

export interface Issued {
  cert: x509.X509Certificate;
  keys: CryptoKeyPair;
  pem: string;
  keyPem: string;
}

async function keyPem(keys: CryptoKeyPair): Promise<string> {
  return x509.PemConverter.encode(await crypto.subtle.exportKey("pkcs8", keys.privateKey), "PRIVATE KEY");
}

let serial = 1;

export async function issue(opts: {
  cn: string;
  ca?: boolean;
  san?: string[];
  issuer?: Issued;
  from?: Date;
  days?: number;
}): Promise<Issued> {
  const keys = (await crypto.subtle.generateKey(EC, true, ["sign", "verify"])) as CryptoKeyPair;
  const from = opts.from ?? new Date(Date.now() - DAY);
  const extensions: x509.Extension[] = [new x509.BasicConstraintsExtension(opts.ca ?? false, undefined, true)];
  if (opts.san)
    extensions.push(
      new x509.SubjectAlternativeNameExtension(
        opts.san.map((n) => (/^[\d.]+$/.test(n) ? { type: "ip" as const, value: n } : { type: "dns" as const, value: n })),
      ),
    );
  const common = {
    serialNumber: (serial++).toString(16).padStart(4, "0"),
    notBefore: from,
    notAfter: new Date(from.getTime() + (opts.days ?? 90) * DAY),
    signingAlgorithm: EC,
    extensions,
  };
  const cert = opts.issuer
    ? await x509.X509CertificateGenerator.create({
        ...common,
        subject: `CN=${opts.cn}`,
        issuer: opts.issuer.cert.subject,
        publicKey: keys.publicKey,
        signingKey: opts.issuer.keys.privateKey,
      })
    : await x509.X509CertificateGenerator.createSelfSigned({ ...common, name: `CN=${opts.cn}`, keys });
  return { cert, keys, pem: cert.toString("pem"), keyPem: await keyPem(keys) };
}

/** root -> intermediate -> leaf for `domain`. */
export async function chainFor(domain: string, leafOpts: { from?: Date; days?: number; san?: string[] } = {}) {
  const root = await issue({ cn: "Test Root CA", ca: true, days: 3650 });
  const intermediate = await issue({ cn: "Test Intermediate CA", ca: true, issuer: root, days: 1825 });
  const leaf = await issue({ cn: domain, san: leafOpts.san ?? [domain], issuer: intermediate, ...leafOpts });
  return { root, intermediate, leaf };
}

export async function sha256Hex(der: ArrayBuffer): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", der))].map((b) => b.toString(16).padStart(2, "0")).join("");
}
