// The sha256 pin of a feed source (shared/domain/cve/feed-source.ts): the raw bytes (before gunzip) pass
// through a hash as they stream; at their end a digest other than the pinned one fails the stream, so
// the sync fails before anything is applied (the staging is dropped). @noble/hashes because WebCrypto's
// digest takes the whole input at once, and a feed is streamed.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

export class FeedPinError extends Error {
  override name = "FeedPinError";
}

export function verifySha256(stream: ReadableStream<Uint8Array>, expected: string, label: string): ReadableStream<Uint8Array> {
  const hash = sha256.create();
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        hash.update(chunk);
        controller.enqueue(chunk);
      },
      flush() {
        const actual = bytesToHex(hash.digest());
        // Not a secret (the pin is in the setting), so a plain comparison.
        if (actual !== expected)
          throw new FeedPinError(
            `${label}: its SHA-256 is ${actual}, not the pinned ${expected}; the feed was refused and nothing was imported.`,
          );
      },
    }),
  );
}
