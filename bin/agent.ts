// The reference agent's entry: `npm run agent -- --server URL` (agent/cli.ts has the options). Exits
// with the agent's code (0 stopped, 1 error, 2 usage, 3 revoked, 4 rejected, 75 restart me after a
// self-update) without waiting for stray sockets to drain.
import { main } from "../agent/cli.ts";

process.exit(await main(process.argv.slice(2)));
