// The host half of install-agent.sh (install-script.ts writes the rest: the server's facts, the
// arguments, the download and its verification). POSIX sh functions that lay the agent out as
// shared/agents/update-layout.ts says (docs/adr/0431-agent-self-update-and-rollback.md), create its
// system user, write its config, its service (a hardened systemd unit, an OpenRC script under
// supervise-daemon, or nothing: a foreground run), enroll it, and take it all away again
// (docs/adr/0432-agent-installer-host-layout.md). Every path is under $ROOT, so a test can install
// into a temporary directory; the system user is the one thing that is not.
import {
  BIN_DIR,
  CURRENT,
  FINAL_EXIT_CODES,
  guardScript,
  PREVIOUS,
  runnerScript,
  TRIAL,
  TRIAL_STARTS,
} from "../../agents/update-layout.ts";

/** The systemd unit's name, the OpenRC service's, the user's default. */
export const SERVICE = "svc-agent";

/** The paths, relative to $ROOT: sh assignments the rest of the script reads. */
export const HOST_PATHS = `ROOT="\${SVC_AGENT_ROOT:-}"
AGENT_USER="\${SVC_AGENT_USER:-${SERVICE}}"
case "$ROOT" in
"" | /*) ;;
*) fail "SVC_AGENT_ROOT must be an absolute path" ;;
esac
case "$ROOT" in *[!A-Za-z0-9._/-]*) fail "SVC_AGENT_ROOT may hold only letters, digits and . _ / -" ;; esac
case "$AGENT_USER" in
[a-z_]*) ;;
*) fail "SVC_AGENT_USER must start with a lowercase letter or _" ;;
esac
case "$AGENT_USER" in *[!a-z0-9_-]*) fail "SVC_AGENT_USER may hold only lowercase letters, digits, _ and -" ;; esac
STATE_DIR="$ROOT/var/lib/${SERVICE}"
BIN_DIR="$STATE_DIR/${BIN_DIR}"
LIB_DIR="$ROOT/usr/local/lib/${SERVICE}"
BIN_LINK="$ROOT/usr/local/bin/${SERVICE}"
CONFIG_DIR="$ROOT/etc/${SERVICE}"
CONFIG_FILE="$CONFIG_DIR/agent.toml"
UNIT_FILE="$ROOT/etc/systemd/system/${SERVICE}.service"
INIT_FILE="$ROOT/etc/init.d/${SERVICE}"
OPENRC_LOG="$ROOT/var/log/${SERVICE}.log"`;

/** Which service manager: systemd when it runs (sd_booted's test), else OpenRC, else none. */
export const CHOOSE_INIT = `if [ "$FOREGROUND" = 1 ]; then
  INIT=none
elif command -v systemctl >/dev/null 2>&1 && [ -d "$ROOT/run/systemd/system" ]; then
  INIT=systemd
elif command -v openrc-run >/dev/null 2>&1 || command -v rc-service >/dev/null 2>&1; then
  INIT=openrc
else
  INIT=none
fi`;

function unit(): string {
  return `[Unit]
Description=Host agent of $SERVER_URL (${SERVICE})
After=network-online.target
Wants=network-online.target

[Service]
User=$AGENT_USER
Group=$AGENT_USER
ExecStartPre=$LIB_DIR/guard $STATE_DIR
ExecStart=$BIN_DIR/${CURRENT} run --config $CONFIG_FILE
Restart=always
RestartSec=5
RestartPreventExitStatus=${FINAL_EXIT_CODES.join(" ")}
UMask=0077
ReadWritePaths=$STATE_DIR
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
RestrictSUIDSGID=yes
RestrictRealtime=yes
LockPersonality=yes
RestrictNamespaces=yes
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
SystemCallArchitectures=native
CapabilityBoundingSet=$CAPABILITIES
AmbientCapabilities=$CAPABILITIES

[Install]
WantedBy=multi-user.target`;
}

function openrcScript(): string {
  // Unquoted heredoc: the values are written in; \\$ keeps what openrc-run expands at start.
  return `#!/sbin/openrc-run
# Written by install-agent.sh: the agent's runner (guard, then bin/current, restarted as the unit would).
name="${SERVICE}"
description="Host agent of $SERVER_URL"
supervisor=supervise-daemon
command="$LIB_DIR/run"
command_args="$STATE_DIR $CONFIG_FILE"
command_user="$AGENT_USER:$AGENT_USER"
directory="$STATE_DIR"
output_log="$OPENRC_LOG"
error_log="$OPENRC_LOG"
# The runner restarts the agent itself; supervise-daemon restarts a runner that died, a few times.
respawn_delay=5
respawn_max=3
respawn_period=300

depend() {
  need net
}`;
}

/** The sh functions: defined once, before the script does anything. */
export function hostFunctions(): string {
  return `say() {
  echo "install-agent: $*"
}

# as_agent CMD ARGS...: runs CMD as the agent's user.
as_agent() {
  if command -v runuser >/dev/null 2>&1; then
    runuser -u "$AGENT_USER" -- "$@"
  elif command -v setpriv >/dev/null 2>&1; then
    setpriv --reuid="$AGENT_USER" --regid="$AGENT_USER" --init-groups -- "$@"
  else
    # shellcheck disable=SC2016 # $0 and $@ are the inner shell's
    su -s /bin/sh "$AGENT_USER" -c 'exec "$0" "$@"' "$@"
  fi
}

# The command that runs the agent in the foreground, as the operator would type it.
foreground_command() {
  if command -v runuser >/dev/null 2>&1; then
    echo "runuser -u $AGENT_USER -- $LIB_DIR/run $STATE_DIR $CONFIG_FILE"
  else
    echo "su -s /bin/sh $AGENT_USER -c '$LIB_DIR/run $STATE_DIR $CONFIG_FILE'"
  fi
}

ensure_user() {
  if id -u "$AGENT_USER" >/dev/null 2>&1; then
    say "system user $AGENT_USER exists"
    return
  fi
  nologin=/bin/false
  for shell in /usr/sbin/nologin /sbin/nologin; do
    if [ -x "$shell" ]; then
      nologin=$shell
      break
    fi
  done
  if command -v useradd >/dev/null 2>&1; then
    useradd --system --user-group --no-create-home --home-dir "$STATE_DIR" --shell "$nologin" "$AGENT_USER"
  elif command -v adduser >/dev/null 2>&1 && command -v addgroup >/dev/null 2>&1; then
    addgroup -S "$AGENT_USER"
    adduser -S -D -H -h "$STATE_DIR" -s "$nologin" -G "$AGENT_USER" "$AGENT_USER"
  else
    fail "cannot create the system user $AGENT_USER: neither useradd nor adduser is here"
  fi
  say "created the system user $AGENT_USER"
}

remove_user() {
  id -u "$AGENT_USER" >/dev/null 2>&1 || return 0
  if command -v userdel >/dev/null 2>&1; then
    userdel "$AGENT_USER" || say "could not remove the user $AGENT_USER (is a process of it still running?)"
  elif command -v deluser >/dev/null 2>&1; then
    deluser "$AGENT_USER" || say "could not remove the user $AGENT_USER (is a process of it still running?)"
  fi
  if grep -q "^$AGENT_USER:" "/etc/group" 2>/dev/null; then
    if command -v groupdel >/dev/null 2>&1; then groupdel "$AGENT_USER" || true; elif command -v delgroup >/dev/null 2>&1; then delgroup "$AGENT_USER" || true; fi
  fi
  id -u "$AGENT_USER" >/dev/null 2>&1 || say "removed the system user $AGENT_USER"
}

# link_to TARGET NAME: NAME becomes a symlink to TARGET by a rename, so it is never missing.
link_to() {
  rm -f "$2.new"
  ln -s "$1" "$2.new"
  mv -f "$2.new" "$2"
}

# write_lib NAME: stdin becomes LIB_DIR/NAME, root's, 0755.
write_lib() {
  cat >"$LIB_DIR/$1.new"
  chown 0:0 "$LIB_DIR/$1.new"
  chmod 0755 "$LIB_DIR/$1.new"
  mv -f "$LIB_DIR/$1.new" "$LIB_DIR/$1"
}

# state_field NAME: a string field of the agent's server.json (agent/state.ts), "null" for null.
state_field() {
  [ -f "$STATE_DIR/server.json" ] || return 0
  sed -n 's/^[[:space:]]*"'"$1"'":[[:space:]]*"\\{0,1\\}\\([^",]*\\)"\\{0,1\\},\\{0,1\\}[[:space:]]*$/\\1/p' "$STATE_DIR/server.json"
}

# The build (verified) into the layout: bin/svc-agent-VERSION, bin/current, and /usr/local/bin/svc-agent.
install_layout() {
  mkdir -p "$BIN_DIR"
  # -R: an agent an older installer ran as root left root's key files here.
  chown -R "$AGENT_USER:$AGENT_USER" "$STATE_DIR"
  chmod 0700 "$STATE_DIR" "$BIN_DIR"
  cp "$BUILD" "$BIN_DIR/svc-agent-$VERSION.new"
  chown "$AGENT_USER:$AGENT_USER" "$BIN_DIR/svc-agent-$VERSION.new"
  chmod 0755 "$BIN_DIR/svc-agent-$VERSION.new"
  mv -f "$BIN_DIR/svc-agent-$VERSION.new" "$BIN_DIR/svc-agent-$VERSION"
  if [ -n "$PREVIOUS_BUILD" ] && [ "$PREVIOUS_BUILD" != "svc-agent-$VERSION" ] && [ -f "$BIN_DIR/$PREVIOUS_BUILD" ]; then
    link_to "$PREVIOUS_BUILD" "$BIN_DIR/${PREVIOUS}"
    chown -h "$AGENT_USER:$AGENT_USER" "$BIN_DIR/${PREVIOUS}"
  fi
  link_to "svc-agent-$VERSION" "$BIN_DIR/${CURRENT}"
  chown -h "$AGENT_USER:$AGENT_USER" "$BIN_DIR/${CURRENT}"
  # The operator's choice ends a self-update on trial: the guard must not roll it back.
  rm -f "$BIN_DIR/${TRIAL}" "$BIN_DIR/${TRIAL_STARTS}"
  mkdir -p "$(dirname "$BIN_LINK")"
  link_to "$BIN_DIR/${CURRENT}" "$BIN_LINK"

  mkdir -p "$LIB_DIR"
  chmod 0755 "$LIB_DIR"
  write_lib guard <<'SVC_AGENT_GUARD'
${guardScript()}SVC_AGENT_GUARD
  write_lib run <<'SVC_AGENT_RUNNER'
${runnerScript()}SVC_AGENT_RUNNER
}

# The config: rewritten on every run, keeping the operator's log_level, spool_cap_bytes and name lines.
write_config() {
  keep=
  if [ -f "$CONFIG_FILE" ]; then
    keep=$(grep -E '^[[:space:]]*(log_level|spool_cap_bytes|name)[[:space:]]*=' "$CONFIG_FILE" || true)
  fi
  mkdir -p "$CONFIG_DIR"
  chown "0:$AGENT_USER" "$CONFIG_DIR"
  chmod 0750 "$CONFIG_DIR"
  {
    echo "# Written by install-agent.sh; a rerun rewrites it, keeping log_level, spool_cap_bytes and name."
    echo "server_url = \\"$SERVER_URL\\""
    echo "server_static_pk = \\"$SERVER_STATIC_PK\\""
    if [ -n "$TLS_PIN" ]; then echo "tls_pin = \\"$TLS_PIN\\""; fi
    echo "state_dir = \\"$STATE_DIR\\""
    if [ -n "$keep" ]; then
      printf '%s\\n' "$keep"
    else
      echo 'log_level = "info"'
      echo 'spool_cap_bytes = 67108864'
    fi
  } >"$CONFIG_FILE.new"
  chown "0:$AGENT_USER" "$CONFIG_FILE.new"
  chmod 0640 "$CONFIG_FILE.new"
  mv -f "$CONFIG_FILE.new" "$CONFIG_FILE"
}

write_service() {
  case "$INIT" in
  systemd)
    mkdir -p "$(dirname "$UNIT_FILE")"
    cat >"$UNIT_FILE.new" <<EOF
${unit()}
EOF
    chmod 0644 "$UNIT_FILE.new"
    mv -f "$UNIT_FILE.new" "$UNIT_FILE"
    systemctl daemon-reload
    say "service manager: systemd; wrote $UNIT_FILE (user $AGENT_USER, capabilities: \${CAPABILITIES:-none})"
    ;;
  openrc)
    mkdir -p "$(dirname "$INIT_FILE")" "$(dirname "$OPENRC_LOG")"
    cat >"$INIT_FILE.new" <<EOF
${openrcScript()}
EOF
    chmod 0755 "$INIT_FILE.new"
    mv -f "$INIT_FILE.new" "$INIT_FILE"
    touch "$OPENRC_LOG"
    chown "$AGENT_USER:$AGENT_USER" "$OPENRC_LOG"
    chmod 0640 "$OPENRC_LOG"
    say "service manager: OpenRC; wrote $INIT_FILE (supervise-daemon runs $LIB_DIR/run as $AGENT_USER; log $OPENRC_LOG)"
    ;;
  none)
    if [ "$FOREGROUND" = 1 ]; then
      say "service manager: none (--foreground): the agent will run in this terminal"
    else
      say "service manager: none found (no running systemd, no OpenRC): the agent is not started as a service"
    fi
    ;;
  esac
}

start_service() {
  case "$INIT" in
  systemd)
    systemctl enable ${SERVICE}.service
    systemctl restart ${SERVICE}.service
    say "${SERVICE}.service enabled and (re)started"
    ;;
  openrc)
    rc-update add ${SERVICE} default
    rc-service ${SERVICE} restart
    say "OpenRC service ${SERVICE} added to the default runlevel and (re)started"
    ;;
  none)
    if [ "$FOREGROUND" = 1 ]; then
      say "running the agent in the foreground: $(foreground_command)"
      rm -rf "$TMP"
      trap - EXIT INT TERM
      code=0
      as_agent "$LIB_DIR/run" "$STATE_DIR" "$CONFIG_FILE" || code=$?
      exit "$code"
    fi
    say "start the agent in the foreground (it restarts it after an update or a crash, as a service would):"
    say "  $(foreground_command)"
    ;;
  esac
}

uninstall() {
  say "uninstalling the agent"
  if [ -f "$UNIT_FILE" ] && command -v systemctl >/dev/null 2>&1; then
    systemctl disable --now ${SERVICE}.service || say "could not stop or disable ${SERVICE}.service"
  fi
  if [ -f "$INIT_FILE" ] && command -v rc-service >/dev/null 2>&1; then
    rc-service ${SERVICE} stop || say "could not stop the OpenRC service ${SERVICE}"
    rc-update del ${SERVICE} default || true
  fi
  if [ -x "$BIN_DIR/${CURRENT}" ] && [ -f "$CONFIG_FILE" ] && [ "$(state_field status)" = active ]; then
    told=0
    if id -u "$AGENT_USER" >/dev/null 2>&1; then
      (cd "$STATE_DIR" && as_agent "$BIN_DIR/${CURRENT}" uninstall --config "$CONFIG_FILE") && told=1
    else
      (cd "$STATE_DIR" && "$BIN_DIR/${CURRENT}" uninstall --config "$CONFIG_FILE") && told=1
    fi
    if [ "$told" = 1 ]; then
      say "told the server: agent $(state_field agent_id) is uninstalled (revoked)"
    else
      say "could not tell the server that this agent is uninstalled; removing it anyway (revoke agent $(state_field agent_id) in the control plane)"
    fi
  else
    say "no enrolled agent here: nothing to tell the server"
  fi
  if [ -f "$UNIT_FILE" ]; then
    rm -f "$UNIT_FILE"
    if command -v systemctl >/dev/null 2>&1; then systemctl daemon-reload || true; fi
    say "removed $UNIT_FILE"
  fi
  if [ -f "$INIT_FILE" ]; then
    rm -f "$INIT_FILE" "$OPENRC_LOG"
    say "removed $INIT_FILE"
  fi
  removed=
  for path in "$BIN_LINK" "$LIB_DIR" "$CONFIG_DIR" "$STATE_DIR"; do
    if [ -e "$path" ] || [ -L "$path" ]; then
      rm -rf "$path"
      removed="$removed $path"
    fi
  done
  if [ -n "$removed" ]; then say "removed$removed"; fi
  remove_user
  say "uninstalled"
}
`;
}

/** What an earlier run left: the build `current` points at, and whether the agent is enrolled with this server. */
export const EARLIER_RUN = `# What an earlier run left: the build current points at, and whether the agent is enrolled with this server.
PREVIOUS_BUILD=
if [ -L "$BIN_DIR/${CURRENT}" ]; then PREVIOUS_BUILD=$(readlink "$BIN_DIR/${CURRENT}"); fi
ENROLLED=0
if [ "$(state_field url)" = "$SERVER_URL" ]; then
  case "$(state_field status)" in
  active) ENROLLED=1 ;;
  revoked | rejected)
    [ "$ACTION" = uninstall ] ||
      fail "the agent on this host was $(state_field status) by $SERVER_URL and cannot link again: run this script with --uninstall, then again to enroll it as a new agent"
    ;;
  esac
fi`;
