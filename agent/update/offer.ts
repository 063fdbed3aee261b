// The `update {version, sha256, signature, os, arch}` frame the server sends, and whether this agent can
// take it: every refusal says why, and is decided before anything is downloaded or replaced.
import { VERSION_PATTERN } from "../../shared/schemas/agents.ts";

export interface UpdateOffer {
  version: string;
  sha256: string;
  /** Base64 Ed25519 signature of the build's SHA256SUMS entry (shared/agents/release.ts). */
  signature: string;
  os: string;
  arch: string;
}

/** What the agent knows about itself when an offer comes. */
export interface OfferContext {
  version: string;
  os: string;
  arch: string;
  releaseKey: string | undefined;
  /** Whether the agent runs from bin/current of the installed layout (BinDir.runsFrom). */
  installed: boolean;
  /** The version on trial (bin/trial), or an update being downloaded now. */
  inProgress: string | undefined;
}

export type OfferCheck = { ok: true; offer: UpdateOffer } | { ok: false; version: string; error: string };

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The offer in `payload`, or the reason this agent refuses it (with the version to report it under). */
export function checkOffer(payload: Record<string, unknown>, ctx: OfferContext): OfferCheck {
  const version = str(payload.version) ?? "";
  const reported = VERSION_PATTERN.test(version) ? version : version.slice(0, 64) || "unknown";
  const refuse = (error: string): OfferCheck => ({ ok: false, version: reported, error });
  const os = str(payload.os);
  const arch = str(payload.arch);
  if (os !== ctx.os || arch !== ctx.arch)
    return refuse(`the build is for ${os ?? "?"}/${arch ?? "?"}; this agent runs on ${ctx.os}/${ctx.arch}`);
  if (!VERSION_PATTERN.test(version)) return refuse(`${JSON.stringify(reported)} is not a version (letters, digits, . _ + -)`);
  if (version === ctx.version) return refuse(`this agent runs version ${version} already`);
  if (ctx.inProgress !== undefined) return refuse(`an update to version ${ctx.inProgress} is in progress`);
  const sha256 = str(payload.sha256) ?? "";
  if (!/^[0-9a-f]{64}$/.test(sha256)) return refuse("the offer's sha256 is not 64 lowercase hex characters");
  const signature = str(payload.signature);
  if (!signature) return refuse("the offer carries no release signature; this agent installs only signed builds");
  if (!ctx.releaseKey) return refuse("this agent was built without a release public key, so it cannot verify any build");
  if (!ctx.installed) return refuse("not installed by install-agent.sh; cannot replace itself");
  return { ok: true, offer: { version, sha256, signature, os, arch } };
}
