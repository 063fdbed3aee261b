// Stands in for the bare `fs` and `util` that char-width-table-consumer (badge-maker's width tables,
// docs/adr/0455) requires for its file loaders, which badge-maker never calls: the tables are bundled
// JSON. wrangler.toml [alias] and scripts/build-edge.ts map both names here.
export const readFile = undefined;
export const readFileSync = undefined;
export function promisify() {
  return () => Promise.reject(new Error("not available on the edge"));
}
