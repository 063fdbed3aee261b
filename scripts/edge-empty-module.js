// Stands in for the optional schema-library converters hono-openapi imports lazily (wrangler.toml
// [alias]); only valibot's converter is ever used here. scripts/build-edge.ts does the same in-memory.
export {};
