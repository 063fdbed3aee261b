#!/usr/bin/env node
// The command-line client (`lab`, package.json "bin"; docs/cli.md). It talks to a server only over its
// HTTP API, so it composes nothing but cli/.
import { main } from "../cli/main.ts";

process.exitCode = await main(process.argv.slice(2));
