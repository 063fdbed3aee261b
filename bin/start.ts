// The all-in-one entry (`npm start`; `npm run start:sidecar` with --sidecar-only). Before the process's
// ~2,400 modules load it turns on Node's compile cache (about a quarter of the start's CPU, from the
// second start on) and resolves drizzle-orm's imports itself (bin/drizzle-resolve.ts): both must be in
// place before the graph is linked, so bin/start-process.ts, which composes the process, is imported
// after (docs/adr/0508). The cache sits beside the migrated database template in node_modules/.cache;
// where it cannot be written, Node starts without it.
import { enableCompileCache } from "node:module";
import { fileURLToPath } from "node:url";
import { resolveDrizzleOnce } from "./drizzle-resolve.ts";

enableCompileCache(fileURLToPath(new URL("../node_modules/.cache/svc-compile-cache", import.meta.url)));
resolveDrizzleOnce();
await import("./start-process.ts");
