// Resolves imports of drizzle-orm without Node's generic resolver. drizzle-orm's package.json is 179 KB,
// nearly all of it an `exports` map of ~450 entries, and Node 24 parses that map again for every
// resolution into or inside the package (node:internal/modules/package_json_reader): about a second of
// CPU per start of this process's ~2,700 modules (docs/adr/0508). Here the map is read once; a bare
// `drizzle-orm[/sub]` import under the "import" condition goes to the map's ESM target, and a relative
// import between drizzle-orm's own ESM files (all fully specified) is joined to its parent. Everything
// else, and anything the map does not name, goes to Node's resolver as before.
import { readFileSync } from "node:fs";
import { registerHooks } from "node:module";

type Target = string | { import?: Target; default?: Target };

export function resolveDrizzleOnce(): void {
  const pkgUrl = new URL("package.json", import.meta.resolve("drizzle-orm"));
  const root = new URL(".", pkgUrl).href;
  const exportsMap = (JSON.parse(readFileSync(pkgUrl, "utf8")) as { exports: Record<string, Target> }).exports;
  const esm = (t: Target | undefined): string | undefined =>
    t === undefined ? undefined : typeof t === "string" ? t : (esm(t.import) ?? esm(t.default));
  const bare = new Map<string, string>();
  for (const [key, target] of Object.entries(exportsMap)) {
    const file = esm(target);
    if (file?.endsWith(".js") && !key.includes("*"))
      bare.set(key === "." ? "drizzle-orm" : `drizzle-orm${key.slice(1)}`, new URL(file, root).href);
  }
  registerHooks({
    resolve(specifier, context, next) {
      if (!context.conditions.includes("import")) return next(specifier, context);
      const url = bare.get(specifier);
      if (url) return { url, format: "module", shortCircuit: true };
      const parent = context.parentURL;
      const relative = specifier.startsWith("./") || specifier.startsWith("../");
      if (relative && parent?.startsWith(root) && parent.endsWith(".js")) {
        const joined = new URL(specifier, parent).href;
        if (joined.startsWith(root) && joined.endsWith(".js")) return { url: joined, format: "module", shortCircuit: true };
      }
      return next(specifier, context);
    },
  });
}
