// Stands in for the bare `fs` and `util` that char-width-table-consumer (badge-maker's width tables,
// docs/adr/0455) requires for its file loaders, which badge-maker never calls: the tables are bundled
// JSON; and for the bare `path` and `url` postcss requires for source maps (sanitize-html never asks it
// for one, docs/adr/0456): a missing name is undefined, which only a call would notice. wrangler.toml
// [alias] and scripts/build-edge.ts map these names here.
export const readFile = undefined;
export const readFileSync = undefined;
export function promisify() {
  return () => Promise.reject(new Error("not available on the edge"));
}
