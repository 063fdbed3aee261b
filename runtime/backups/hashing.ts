// A pass-through that hashes and counts what flows through it (archives as they are written, snapshot
// members as they are extracted).
import type { Hash } from "node:crypto";
import { Transform } from "node:stream";

export function hashing(hash: Hash, counter: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      counter.bytes += chunk.length;
      cb(null, chunk);
    },
  });
}
