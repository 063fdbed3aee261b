// Runs the passive listener inside a test's network namespace (`ip netns exec`), with the real description
// fetch (the outbound client under the default outbound policy, the default allowed targets), and reports
// on stdout, one JSON line each: {type: "ready"}, {type: "observation", observation}, {type: "status", status}.
// Reads commands from stdin: "status" prints the status; end of input stops the listener and exits. It also
// prints the status every 300 ms (a listener stand-in in the test process keeps the latest).
import { createInterface } from "node:readline";
import { DEFAULT_ALLOWED_TARGETS, parseTargets } from "../../../shared/domain/discovery/targets.ts";
import { DEFAULT_OUTBOUND_POLICY } from "../../../shared/domain/net/outbound-policy.ts";
import { descriptionFetcher } from "../../../net/listener/description-fetch.ts";
import { nodeOutboundHttp } from "../../../net/outbound-http.ts";
import { passiveListener } from "../../../net/listener/passive-listener.ts";

const interfaces = process.argv.slice(2);
const allowed = parseTargets({ targets: [...DEFAULT_ALLOWED_TARGETS], cap: Number.MAX_SAFE_INTEGER });
if (!allowed.ok) throw new Error(allowed.message);
const write = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
const listener = passiveListener({
  interfaces,
  // The status follows each observation, so a reader that takes both sees counts that include it.
  onObservation: (observation) => {
    write({ type: "observation", observation });
    write({ type: "status", status: listener.status() });
  },
  fetchDescription: descriptionFetcher({
    outbound: nodeOutboundHttp(),
    policy: async () => DEFAULT_OUTBOUND_POLICY,
    allowed: (ip) => allowed.value.contains(ip),
  }),
});
await listener.start();
write({ type: "ready", status: listener.status() });
const every = setInterval(() => write({ type: "status", status: listener.status() }), 300);
const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (line.trim() === "status") write({ type: "status", status: listener.status() });
});
rl.on("close", () => {
  clearInterval(every);
  void listener.stop().then(() => process.exit(0));
});
