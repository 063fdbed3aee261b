// Deps.cveFeed on Node: opens a CVE feed file (NVD CVE API 2.0 JSON, gzip or not) as a web stream for
// the streaming import (shared/verbs/cve/sync.ts). Only absolute paths to regular files.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { Readable } from "node:stream";
import type { CveFeedFiles } from "../../shared/verbs/cve/feed-files.ts";
import { CveSyncError } from "../../shared/verbs/cve/sync.ts";

export function nodeCveFeedFiles(): CveFeedFiles {
  return {
    async open(path, signal) {
      if (!isAbsolute(path)) throw new CveSyncError(`${path}: a feed file must be an absolute path.`);
      const info = await stat(path).catch((e: NodeJS.ErrnoException) => {
        throw new CveSyncError(`${path}: ${e.code === "ENOENT" ? "no such file" : e.message}.`);
      });
      if (!info.isFile()) throw new CveSyncError(`${path}: not a regular file.`);
      const stream = createReadStream(path, { highWaterMark: 1024 * 1024, signal });
      return Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>;
    },
  };
}
