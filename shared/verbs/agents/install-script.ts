// The agent installer (GET /install-agent.sh) and the command that runs it (GET /agents/install-command).
// The script is POSIX sh carrying only public material: the server's URL (SERVER_URL=), its Noise static
// public key (SERVER_STATIC_PK=), the agent release public key (RELEASE_KEY_SPKI=, base64 DER) and, per
// Linux architecture, the newest build's version, SHA-256 and release signature. It checks with openssl
// that the signature is the release key's over the build's SHA256SUMS entry (a POSIX sh cannot verify
// Ed25519 alone; docs/adr/0426-agent-release-signatures.md), downloads the build from
// /api/v1/agents/binary/..., refuses it unless `sha256sum -c` passes on that same line; only then does
// it change the host (install-host.ts: the user, the layout, the config, the service, the enrollment,
// which prints the pairing code to approve; or, with --uninstall, all of it removed). Without openssl, a
// release key or a signature it refuses, unless told --insecure-skip-signature.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8Bytes } from "../../auth/encoding.ts";
import { BUILD_FILE, releaseKeyId, releaseKeyPem } from "../../agents/release.ts";
import { agentCapabilities } from "../../agents/probe-capabilities.ts";
import type { AgentBinary } from "./binaries.ts";
import { CHOOSE_INIT, EARLIER_RUN, HOST_PATHS, hostFunctions } from "./install-host.ts";

export interface InstallFacts {
  /** Checked by serverUrlPattern: it goes into the script between quotes. */
  serverUrl: string;
  /** 64 hex. */
  serverPublicKey: string;
  /** Every build this instance serves, newest version first. */
  builds: readonly AgentBinary[];
  /** The agent release public key (64 hex); undefined: none configured, and the script refuses to install. */
  releaseKey?: string | undefined;
  /** The server's TLS certificate pin, written to the agent's config as tls_pin; undefined: none. */
  tlsPin?: string | undefined;
}

/** What a TLS pin embedded in the script may contain (base64, hex, a sha256/ prefix): nothing to quote. */
const TLS_PIN_PATTERN = /^[A-Za-z0-9+/=:_-]{16,128}$/;

/** What a server URL embedded in the script may contain: nothing a shell or TOML string would interpret. */
export const SERVER_URL_PATTERN = /^https?:\/\/[A-Za-z0-9.\-[\]:]+(\/[A-Za-z0-9._~\-/]*)?$/;

/** `uname -m` names of each architecture the layout names the Go way. */
const UNAME: Record<string, string> = { amd64: "x86_64|amd64", arm64: "aarch64|arm64", arm: "armv7l|armv6l|arm", "386": "i386|i686" };

/** The newest build of each Linux architecture. */
export function linuxBuilds(builds: readonly AgentBinary[]): AgentBinary[] {
  const byArch = new Map<string, AgentBinary>();
  for (const b of builds) if (b.os === "linux" && !byArch.has(b.arch)) byArch.set(b.arch, b);
  return [...byArch.values()].sort((a, b) => a.arch.localeCompare(b.arch));
}

/** The base64 DER of the key's SPKI: the body of the PEM openssl reads. */
function spkiBase64(releaseKey: string | undefined): string {
  return releaseKey ? releaseKeyPem(releaseKey).split("\n")[1]! : "";
}

const BASE64_SIGNATURE = /^[A-Za-z0-9+/]{86}==$/;

export function installScript({ serverUrl, serverPublicKey, builds, releaseKey, tlsPin }: InstallFacts): string {
  if (!SERVER_URL_PATTERN.test(serverUrl)) throw new Error("server URL not safe to embed");
  if (!/^[0-9a-f]{64}$/.test(serverPublicKey)) throw new Error("server public key must be 64 hex");
  if (tlsPin !== undefined && !TLS_PIN_PATTERN.test(tlsPin)) throw new Error("TLS pin not safe to embed");
  const linux = linuxBuilds(builds);
  const archCases = linux.map((b) => `  ${UNAME[b.arch] ?? b.arch}) ARCH='${b.arch}' ;;`).join("\n");
  const signatureOf = (b: AgentBinary) => (b.signature && BASE64_SIGNATURE.test(b.signature) ? b.signature : "");
  const buildCases = linux
    .map((b) => `  ${b.arch}) VERSION='${b.version}'; SHA256='${b.sha256}'; SIGNATURE='${signatureOf(b)}' ;;`)
    .join("\n");
  const capabilities = agentCapabilities();
  return `#!/bin/sh
# Installs this control plane's host agent and enrolls it: approve the pairing code it prints in the UI
# (or with POST /api/v1/agents/pairing/lookup). Everything below is public; the download is accepted
# only if the release key's signature vouches for its SHA-256 (checked with openssl) and the download has
# that SHA-256. --insecure-skip-signature (or SVC_AGENT_INSECURE_SKIP_SIGNATURE=1) checks the SHA-256 alone.
# Run again, it upgrades the agent in place and keeps its device key and enrollment; --uninstall removes
# it (and tells the server). docs/agents.md, "Installing on a host", says what goes where.
set -eu

SERVER_URL='${serverUrl}'
SERVER_STATIC_PK='${serverPublicKey}'
# The server's TLS certificate pin, when it gives one (the agent checks it over HTTPS).
TLS_PIN='${tlsPin ?? ""}'
# The agent release public key${releaseKey ? ` ${releaseKeyId(releaseKey)}...` : " (none configured on this server)"}: base64 of its DER SubjectPublicKeyInfo.
RELEASE_KEY_SPKI='${spkiBase64(releaseKey)}'
# The capabilities the probes this agent runs need (${capabilities.length ? "given to its service" : "none: its service gets no capability"}).
CAPABILITIES='${capabilities.join(" ")}'

USAGE="usage: install-agent.sh [--foreground] [--no-icmp] [--insecure-skip-signature] | --uninstall"
SKIP_SIGNATURE="\${SVC_AGENT_INSECURE_SKIP_SIGNATURE:-0}"
ACTION=install
FOREGROUND=0
for arg in "$@"; do
  case "$arg" in
  --insecure-skip-signature) SKIP_SIGNATURE=1 ;;
  --uninstall) ACTION=uninstall ;;
  --foreground) FOREGROUND=1 ;;
  --no-icmp)
    kept=
    for cap in $CAPABILITIES; do [ "$cap" = CAP_NET_RAW ] || kept="$kept\${kept:+ }$cap"; done
    CAPABILITIES=$kept
    ;;
  --help | -h)
    echo "$USAGE"
    exit 0
    ;;
  *)
    echo "install-agent: unknown argument $arg; $USAGE" >&2
    exit 2
    ;;
  esac
done

fail() {
  echo "install-agent: $*" >&2
  exit 1
}

# Where things go (docs/adr/0432-agent-installer-host-layout.md); SVC_AGENT_ROOT moves them all.
${HOST_PATHS}

[ "$(id -u)" = 0 ] || fail "run me as root (sudo sh install-agent.sh)"
[ "$(uname -s)" = Linux ] || fail "this installer is for Linux"

${hostFunctions()}
${EARLIER_RUN}

if [ "$ACTION" = uninstall ]; then
  uninstall
  exit 0
fi

command -v curl >/dev/null 2>&1 || fail "curl is required"

MACHINE=$(uname -m)
case "$MACHINE" in
${archCases}
  *) ARCH="$MACHINE" ;;
esac

# The newest build for each architecture this server has, with its SHA-256.
VERSION=
SHA256=
SIGNATURE=
case "$ARCH" in
${buildCases}
  *) ;;
esac
[ -n "$VERSION" ] || fail "this server has no agent build for linux/$ARCH"

# SVC_AGENT_INSECURE_TLS=1 (the self-signed install command sets it): the SHA-256 check, not TLS,
# is what vouches for the download.
# -g: brackets of an IPv6 address are not a curl URL pattern.
CURL_FLAGS=-fsSLg
if [ "\${SVC_AGENT_INSECURE_TLS:-0}" = 1 ]; then CURL_FLAGS=-fsSLgk; fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM

# The build's SHA256SUMS line: what the release key signed, and what \`sha256sum -c\` checks the download against.
printf '%s  %s\n' "$SHA256" "$VERSION/linux/$ARCH/${BUILD_FILE}" >"$TMP/SHA256SUMS"
BUILD="$TMP/$VERSION/linux/$ARCH/${BUILD_FILE}"
mkdir -p "$TMP/$VERSION/linux/$ARCH"

if [ "$SKIP_SIGNATURE" = 1 ]; then
  echo "install-agent: WARNING: --insecure-skip-signature: the build's release signature is not checked, only its SHA-256" >&2
else
  SKIP_HINT="rerun with --insecure-skip-signature to trust the SHA-256 alone"
  [ -n "$RELEASE_KEY_SPKI" ] || fail "this server has no agent release key (AGENT_RELEASE_PUBLIC_KEY), so the build cannot be verified: not installed ($SKIP_HINT)"
  [ -n "$SIGNATURE" ] || fail "agent $VERSION for linux/$ARCH is not signed with the release key: not installed ($SKIP_HINT)"
  command -v openssl >/dev/null 2>&1 || fail "openssl is required to verify the build's Ed25519 release signature: install it, or $SKIP_HINT"
  printf -- '-----BEGIN PUBLIC KEY-----\n%s\n-----END PUBLIC KEY-----\n' "$RELEASE_KEY_SPKI" >"$TMP/release-key.pem"
  printf '%s' "$SIGNATURE" | openssl base64 -d -A >"$TMP/SHA256SUMS.sig" || fail "the build's signature is not base64: not installed"
  openssl pkeyutl -verify -pubin -inkey "$TMP/release-key.pem" -rawin -in "$TMP/SHA256SUMS" -sigfile "$TMP/SHA256SUMS.sig" >/dev/null 2>&1 ||
    fail "the release signature of agent $VERSION for linux/$ARCH does not verify under the release key: not installed"
fi

curl "$CURL_FLAGS" -o "$BUILD" "$SERVER_URL/api/v1/agents/binary/$VERSION/linux/$ARCH" || fail "download of agent $VERSION for linux/$ARCH failed"

GOT=
if command -v sha256sum >/dev/null 2>&1; then
  (cd "$TMP" && sha256sum -c --status SHA256SUMS) || GOT=$(sha256sum "$BUILD" | cut -d ' ' -f 1)
elif command -v shasum >/dev/null 2>&1; then
  (cd "$TMP" && shasum -a 256 -c --status SHA256SUMS) || GOT=$(shasum -a 256 "$BUILD" | cut -d ' ' -f 1)
else
  fail "sha256sum or shasum is required"
fi
[ -z "$GOT" ] || fail "the download's SHA-256 is $GOT, expected $SHA256: not installed"

# Verified: from here on the host changes (every file gets its mode explicitly).
umask 022
${CHOOSE_INIT}
ensure_user
install_layout
if [ -z "$PREVIOUS_BUILD" ]; then
  say "installed agent $VERSION in $BIN_DIR"
elif [ "$PREVIOUS_BUILD" = "svc-agent-$VERSION" ]; then
  say "agent $VERSION was installed already: reinstalled it in place"
else
  say "upgraded the agent from \${PREVIOUS_BUILD#svc-agent-} to $VERSION"
fi
write_config
write_service

if [ "$ENROLLED" = 1 ]; then
  say "already enrolled with $SERVER_URL as agent $(state_field agent_id): kept its device key and enrollment"
else
  say "enrolling with $SERVER_URL as user $AGENT_USER: approve the pairing code below in the control plane (this waits for it)"
  code=0
  (cd "$STATE_DIR" && as_agent "$BIN_DIR/current" enroll --config "$CONFIG_FILE") || code=$?
  case "$code" in
  0) say "enrolled as agent $(state_field agent_id)" ;;
  3) fail "the server revoked this agent: run this script with --uninstall, then again" ;;
  4) fail "the enrollment was rejected: run this script with --uninstall, then again to enroll anew" ;;
  *) fail "the enrollment failed (exit $code): the agent is installed but not enrolled; run this script again" ;;
  esac
fi
start_service
`;
}

export function scriptSha256(script: string): string {
  return bytesToHex(sha256(utf8Bytes(script)));
}

export type TlsMode = "public" | "self_signed" | "none";

const SCRIPT_FILE = "/tmp/svc-agent-install.sh";

/**
 * The one line an operator runs on the host: piped to sh behind a public certificate; otherwise saved,
 * checked against the script's SHA-256, then run (with the downloads' TLS check off for self_signed).
 */
export function installCommand(baseUrl: string, mode: TlsMode, sha: string): string {
  if (!SERVER_URL_PATTERN.test(baseUrl)) throw new Error("server URL not safe to embed");
  // Quoted: the pattern admits no quote, and brackets (IPv6) must not glob.
  const url = `'${baseUrl}/install-agent.sh'`;
  if (mode === "public") return `curl -fsSLg ${url} | sudo sh`;
  const fetch = mode === "self_signed" ? `curl -fsSLgk ${url}` : `curl -fsSLg ${url}`;
  const run = mode === "self_signed" ? `sudo env SVC_AGENT_INSECURE_TLS=1 sh ${SCRIPT_FILE}` : `sudo sh ${SCRIPT_FILE}`;
  return `${fetch} -o ${SCRIPT_FILE} && echo "${sha}  ${SCRIPT_FILE}" | sha256sum -c - && ${run}`;
}
