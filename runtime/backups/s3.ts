// The S3 half of Deps.backups, on @aws-sdk/client-s3: path-style addressing (MinIO, Garage, s3rver and
// other S3-compatible stores), one PutObject per archive streamed from the file (S3 takes up to 5 GB in
// one PutObject; archives of this product stay far below: docs/backups.md), a one-key listing for the test,
// and retention by listing the prefix (backups and snapshots counted apart). Every failure becomes an S3Error carrying the store's message.
// Every connection looks its host up through the outbound policy (net/outbound-http.ts policyLookup), so an
// endpoint name that resolves to loopback or metadata is refused when connecting, not just when saved.
import { createReadStream } from "node:fs";
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { S3Client } from "@aws-sdk/client-s3";
import { checkOutboundUrl } from "../../shared/domain/net/outbound-policy.ts";
import { ARCHIVE_NAME, type ArchiveKind, archiveKind, S3Error, type S3Target } from "../../shared/verbs/backups/store.ts";
import { policyLookup, type Resolve } from "../../net/outbound-http.ts";

// Loaded on first use, not at start: most installs keep their backups local, and the SDK weighs ~33 MiB
// (docs/adr/0508).
type Sdk = typeof import("@aws-sdk/client-s3");
const loadSdk = (): Promise<Sdk> => import("@aws-sdk/client-s3");

function client(sdk: Sdk, t: S3Target, resolve: Resolve | undefined): S3Client {
  const lookup = policyLookup(t.policy, resolve);
  return new sdk.S3Client({
    requestHandler: { httpAgent: new HttpAgent({ lookup }), httpsAgent: new HttpsAgent({ lookup }) },
    region: t.region,
    forcePathStyle: true,
    maxAttempts: 2,
    // No aws-chunked CRC trailers unless the operation requires them: many S3-compatible stores
    // (s3rver, older MinIO and Ceph) store the chunk framing as the object's bytes.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    ...(t.endpoint ? { endpoint: t.endpoint } : {}),
    ...(t.accessKeyId && t.secretAccessKey ? { credentials: { accessKeyId: t.accessKeyId, secretAccessKey: t.secretAccessKey } } : {}),
  });
}

async function s3<T>(what: string, t: S3Target, resolve: Resolve | undefined, body: (c: S3Client, sdk: Sdk) => Promise<T>): Promise<T> {
  // An IP literal never reaches the lookup: judged here, whatever the stored settings said.
  const check = t.endpoint ? checkOutboundUrl(t.endpoint, t.policy) : null;
  if (check && !check.ok) throw new S3Error(`The S3 endpoint is not allowed: ${check.message}`);
  const sdk = await loadSdk();
  const c = client(sdk, t, resolve);
  try {
    return await body(c, sdk);
  } catch (e) {
    const message =
      e instanceof sdk.S3ServiceException
        ? `${e.name}${e.message && e.message !== e.name ? `: ${e.message}` : ""} (HTTP ${e.$metadata.httpStatusCode ?? "?"})`
        : (e as Error).message;
    throw new S3Error(`S3 ${what} failed on bucket ${t.bucket}: ${message}`);
  } finally {
    c.destroy();
  }
}

export const s3Operations = (dir: string, resolve?: Resolve) => ({
  async upload(t: S3Target, filename: string): Promise<string> {
    const path = join(dir, filename);
    const { size } = await stat(path);
    const key = `${t.prefix}${filename}`;
    await s3("upload", t, resolve, (c, sdk) =>
      c.send(
        new sdk.PutObjectCommand({
          Bucket: t.bucket,
          Key: key,
          Body: createReadStream(path),
          ContentLength: size,
          ContentType: "application/gzip",
        }),
      ),
    );
    return key;
  },
  async testS3(t: S3Target): Promise<void> {
    // A listing, not HeadBucket: some stores answer HEAD without checking the signature.
    await s3("test", t, resolve, (c, sdk) => c.send(new sdk.ListObjectsV2Command({ Bucket: t.bucket, Prefix: t.prefix, MaxKeys: 1 })));
  },
  async pruneS3(t: S3Target, keep: number, kind: ArchiveKind): Promise<string[]> {
    return s3("retention", t, resolve, async (c, sdk) => {
      const keys: string[] = [];
      let token: string | undefined;
      for (let page = 0; page < 100; page++) {
        const res = await c.send(new sdk.ListObjectsV2Command({ Bucket: t.bucket, Prefix: t.prefix, ContinuationToken: token }));
        for (const o of res.Contents ?? []) {
          const name = o.Key?.slice(t.prefix.length) ?? "";
          if (ARCHIVE_NAME.test(name) && archiveKind(name) === kind) keys.push(o.Key!);
        }
        if (!res.IsTruncated) break;
        token = res.NextContinuationToken;
      }
      // Archive names sort by their timestamp.
      const doomed = keys.sort().slice(0, Math.max(0, keys.length - keep));
      for (let i = 0; i < doomed.length; i += 1000)
        await c.send(
          new sdk.DeleteObjectsCommand({ Bucket: t.bucket, Delete: { Objects: doomed.slice(i, i + 1000).map((Key) => ({ Key })) } }),
        );
      return doomed;
    });
  },
});
