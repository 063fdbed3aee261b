#!/usr/bin/env node
// The command-line client (`lab`, package.json "bin"; docs/cli.md). It talks to a server only over its
// HTTP API, so it composes nothing but cli/. Plain JavaScript, unlike the other entries: Node loads its
// TypeScript stripper for a .ts entry before any code runs, ~60 ms of every command, while cli/'s own
// TypeScript comes stripped from the compile cache below (docs/adr/0503).
import { enableCompileCache } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";

// A command is a short process: compiling (and type-stripping) cli/ again on every start cost about half
// of a `lab list`'s time to its first line (docs/adr/0503). Node keeps the compiled code under the CLI's
// cache folder and checks it against each file's content. Before the import, so that it applies to cli/.
const cacheHome = process.env.XDG_CACHE_HOME?.startsWith("/") ? process.env.XDG_CACHE_HOME : join(homedir(), ".cache");
enableCompileCache(join(cacheHome, "lab", "node-compile-cache"));
const { main } = await import("../cli/main.ts");

process.exitCode = await main(process.argv.slice(2));
