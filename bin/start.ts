// The all-in-one entry (`npm start`; `npm run start:sidecar` with --sidecar-only). It turns on Node's
// compile cache before the process's ~2,700 modules load, which saves about a quarter of the start's CPU
// from the second start on (docs/adr/0508); bin/start-process.ts composes the process. The cache sits
// beside the migrated database template in node_modules/.cache; where it cannot be written, Node starts
// without it.
import { enableCompileCache } from "node:module";
import { fileURLToPath } from "node:url";

enableCompileCache(fileURLToPath(new URL("../node_modules/.cache/svc-compile-cache", import.meta.url)));
await import("./start-process.ts");
