// GET /install-agent.sh (public: it carries only public material) and GET /agents/install-command
// (admin). The server URL is worked out by the route (PUBLIC_URL, else the request); the server's
// static key is the current one, made on first use (server-key.ts).
import { defineRead } from "../verb.ts";
import { vaultOf, type VerbContext } from "../verb-context.ts";
import type { AgentBinary } from "./binaries.ts";
import { installCommand, installScript, scriptSha256, type TlsMode } from "./install-script.ts";
import { currentServerPublicKey } from "./server-key.ts";
import { activeCertificatePin } from "./tls-pin.ts";
import { ADMIN_AGENTS } from "./scopes.ts";

export interface InstallInput {
  /** Embedded in the script: where the agent will reach this server. */
  serverUrl: string;
  builds: readonly AgentBinary[];
  /** The agent release public key (64 hex); undefined when none is configured. */
  releaseKey?: string | undefined;
}

/**
 * The pin the installed agent checks the server's certificate against: only behind https with a
 * self-signed active certificate, where the pin is what vouches for the server. A public certificate
 * is left to the CAs: it renews every few weeks, and a pin on it would strand agents at each renewal
 * unless a pin rotation ran first (docs/agents.md, TLS pinning).
 */
async function installPin(ctx: VerbContext, serverUrl: string): Promise<string | undefined> {
  if (!serverUrl.startsWith("https:")) return undefined;
  const active = await activeCertificatePin(ctx.db);
  return active?.type === "selfsigned" ? active.pin : undefined;
}

async function scriptFor(ctx: VerbContext, input: InstallInput): Promise<string> {
  const key = await currentServerPublicKey(ctx.db, vaultOf(ctx), ctx.clock.now());
  return installScript({
    serverUrl: input.serverUrl,
    serverPublicKey: key.public_key,
    builds: input.builds,
    releaseKey: input.releaseKey,
    tlsPin: await installPin(ctx, input.serverUrl),
  });
}

export const agentInstallScript = defineRead<InstallInput, { script: string; sha256: string }>({ scope: "public" }, async (ctx, input) => {
  const script = await scriptFor(ctx, input);
  return { script, sha256: scriptSha256(script) };
});

export interface InstallCommandInput extends InstallInput {
  /** Where the operator's host fetches the script from (the endpoint asked for, else serverUrl). */
  fetchUrl: string;
  tlsMode: TlsMode;
}

export const agentInstallCommand = defineRead<
  InstallCommandInput,
  { tls_mode: TlsMode; server_url: string; command: string; script_sha256: string }
>({ scope: ADMIN_AGENTS }, async (ctx, input) => {
  const sha = scriptSha256(await scriptFor(ctx, input));
  return {
    tls_mode: input.tlsMode,
    server_url: input.serverUrl,
    command: installCommand(input.fetchUrl, input.tlsMode, sha),
    script_sha256: sha,
  };
});
