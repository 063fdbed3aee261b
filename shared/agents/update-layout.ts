// Where an installed agent keeps its executables, and the two POSIX sh scripts that roll a failed
// self-update back (docs/adr/0431-agent-self-update-and-rollback.md). Shared by the install script
// (shared/verbs/agents/install-script.ts, which installs the scripts) and the agent (agent/update/,
// which swaps the binaries and confirms or reports the trial).
//
// Under the agent's state directory (default /var/lib/svc-agent, the only place it may write):
//   bin/svc-agent-<version>   each verified executable (0755)
//   bin/current               symlink to the svc-agent-<version> that runs (what the service starts)
//   bin/previous              symlink to the one before the last update (absent before the first)
//   bin/trial                 while a new version is on trial: "version=<new>\nfrom=<old>\n"
//   bin/trial-starts          one line per start of the trial version, appended by the guard
//   bin/rolled-back           after a rollback: "version=<new>\nerror=<why>\n", reported and removed by
//                             the restored agent once it links
// A trial ends when the new version links (it removes trial and trial-starts and reports succeeded), or
// by a rollback: the guard's, when the new version was started TRIAL_STARTS times without linking (it
// crashed or exited), or the new version's own, when it did not link within its deadline.

/** Folder of the state directory holding the executables and the trial files. */
export const BIN_DIR = "bin";
export const CURRENT = "current";
export const PREVIOUS = "previous";
export const TRIAL = "trial";
export const TRIAL_STARTS = "trial-starts";
export const ROLLED_BACK = "rolled-back";
/** The file name of version `v`'s executable in BIN_DIR. */
export const versionedBinary = (version: string): string => `svc-agent-${version}`;

/** Starts of a trial version after which the guard restores the previous one (the 3rd start runs it). */
export const MAX_TRIAL_STARTS = 2;
/** Exit code of an agent that swapped its binary (or rolled back) and wants to be started again. */
export const EXIT_RESTART = 75;
/** Exit codes after which no supervisor restarts the agent: usage error, revoked, rejected. */
export const FINAL_EXIT_CODES = [2, 3, 4] as const;

/** The versions a trial file or a rolled-back file names, parsed from their `key=value` lines. */
export function parseMarker(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

/** The marker text for `fields` (values on one line each: newlines are replaced). */
export function formatMarker(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k}=${v.replace(/[\r\n]+/g, " ")}\n`)
    .join("");
}

/**
 * `guard STATE_DIR`: run before each start of the agent (systemd ExecStartPre, and by the runner
 * below). Outside a trial it does nothing. In a trial it counts the start, and once the trial version
 * has been started MAX_TRIAL_STARTS times without linking it points `current` back at `previous` and
 * leaves `rolled-back` for the restored agent to report. Every step is a rename, so a crash between
 * two steps leaves either the old or the new state.
 */
export function guardScript(): string {
  return `#!/bin/sh
# svc-agent update guard: rolls back a self-update whose new version keeps failing to start.
# usage: guard STATE_DIR   (runs before every start of the agent; outside an update it does nothing)
set -eu
[ $# -eq 1 ] || { echo "usage: guard STATE_DIR" >&2; exit 2; }
bin="$1/${BIN_DIR}"
[ -f "$bin/${TRIAL}" ] || exit 0

version=$(sed -n 's/^version=//p' "$bin/${TRIAL}")
starts=0
if [ -f "$bin/${TRIAL_STARTS}" ]; then starts=$(wc -l <"$bin/${TRIAL_STARTS}" | tr -d ' '); fi
if [ "$starts" -lt ${MAX_TRIAL_STARTS} ]; then
  echo "start" >>"$bin/${TRIAL_STARTS}"
  exit 0
fi

if [ ! -L "$bin/${PREVIOUS}" ]; then
  echo "svc-agent guard: version $version did not link after $starts starts, and there is no previous version to restore" >&2
  rm -f "$bin/${TRIAL}" "$bin/${TRIAL_STARTS}"
  exit 0
fi
previous=$(readlink "$bin/${PREVIOUS}")
ln -sf "$previous" "$bin/${CURRENT}.new"
mv -f "$bin/${CURRENT}.new" "$bin/${CURRENT}"
printf 'version=%s\\nerror=%s\\n' "$version" "it exited $starts times without linking to the server" >"$bin/${ROLLED_BACK}.new"
mv -f "$bin/${ROLLED_BACK}.new" "$bin/${ROLLED_BACK}"
rm -f "$bin/${TRIAL}" "$bin/${TRIAL_STARTS}"
echo "svc-agent guard: version $version did not link after $starts starts; restored $previous" >&2
`;
}

/**
 * `run STATE_DIR CONFIG_FILE [GUARD]`: the supervisor where there is no systemd (OpenRC runs it under
 * supervise-daemon; a plain foreground run is this script in a terminal). Like the systemd unit it
 * runs the guard, then `bin/current run --config CONFIG_FILE`, and starts it again after it exits,
 * except after a final exit code or a stop signal. RESTART_SEC (default 5) paces the restarts.
 */
export function runnerScript(): string {
  return `#!/bin/sh
# svc-agent runner: starts the agent, and starts it again when it exits (an update restarts it), like
# the systemd unit does. usage: run STATE_DIR CONFIG_FILE [GUARD]
set -u
[ $# -ge 2 ] || { echo "usage: run STATE_DIR CONFIG_FILE [GUARD]" >&2; exit 2; }
state=$1
config=$2
guard=\${3:-$(dirname "$0")/guard}
delay=\${RESTART_SEC:-5}
child=
stopping=
trap 'stopping=1; [ -z "$child" ] || kill -TERM "$child" 2>/dev/null' INT TERM
while [ -z "$stopping" ]; do
  "$guard" "$state" || echo "svc-agent runner: the update guard failed ($?)" >&2
  "$state/${BIN_DIR}/${CURRENT}" run --config "$config" &
  child=$!
  code=0
  wait "$child" || code=$?
  # A trapped signal interrupts wait: wait again for the agent's own exit.
  if [ -n "$stopping" ]; then wait "$child" 2>/dev/null || true; exit 0; fi
  child=
  case $code in
  0) exit 0 ;;
  ${FINAL_EXIT_CODES.join("|")}) echo "svc-agent runner: the agent exited $code; not restarting it" >&2; exit "$code" ;;
  ${EXIT_RESTART}) ;;
  *) echo "svc-agent runner: the agent exited $code; starting it again in \${delay}s" >&2; sleep "$delay" ;;
  esac
done
`;
}
