// The documentation pages' scripts, read once from the installed packages (no CDN: closed networks).
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { AssetLoader } from "../shared/deps.ts";

const sources: Record<"scalar.js" | "redoc.js", () => string> = {
  "scalar.js": () => fileURLToPath(new URL("./browser/standalone.js", import.meta.resolve("@scalar/api-reference"))),
  "redoc.js": () => fileURLToPath(new URL("./redoc.standalone.js", import.meta.resolve("redoc"))),
};

export function packageAssets(): AssetLoader {
  const cache = new Map<string, Promise<Uint8Array | undefined>>();
  return (name) => {
    let hit = cache.get(name);
    if (!hit) {
      hit = readFile(sources[name]()).then(
        (b) => new Uint8Array(b),
        () => undefined,
      );
      cache.set(name, hit);
    }
    return hit;
  };
}
