// The feed-file reader's type on its own, so that shared/deps.ts names it without importing the sync
// (which imports the job runner, which imports shared/deps.ts).
/** Opens a feed file (Node: the file system); absent on the edge, where only URL sources can be read. */
export interface CveFeedFiles {
  open(path: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>>;
}
