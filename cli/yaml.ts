// The `yaml` library, loaded when a command first needs it: loading it costs ~30 ms of CPU, which a
// `lab list` printing a table or JSON would pay on every run before its first line (docs/adr/0503).
import { createRequire } from "node:module";

type Yaml = typeof import("yaml");
let lib: Yaml | undefined;

export function yaml(): Yaml {
  lib ??= createRequire(import.meta.url)("yaml") as Yaml;
  return lib;
}
