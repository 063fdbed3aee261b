# Source this (". scripts/node24.sh") to make sure a Node >= 22.12 is first on PATH. When the machine's
# node is older, it installs Node 24 from the npm registry's node-<os>-<arch> package into a cache
# folder once (about 50 MB) and puts it first on PATH; otherwise it changes nothing.
_need="22.12.0"
_have=$(node -v 2>/dev/null | sed 's/^v//')
_older() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" = "$1" ] && [ "$1" != "$2" ]; }
if [ -z "$_have" ] || _older "$_have" "$_need"; then
  _pin="${NODE_PIN:-24.21.0}"
  _os=$(uname -s | tr '[:upper:]' '[:lower:]')
  case "$(uname -m)" in x86_64) _arch=x64 ;; aarch64 | arm64) _arch=arm64 ;; *) _arch=$(uname -m) ;; esac
  _cache="${XDG_CACHE_HOME:-$HOME/.cache}/node-$_pin-$_os-$_arch"
  _bin="$_cache/node_modules/node-$_os-$_arch/bin"
  if ! "$_bin/node" -v 2>/dev/null | grep -q "^v$_pin$"; then
    echo "node $_have is older than $_need: installing Node $_pin into $_cache" >&2
    npm install --prefix "$_cache" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund \
      --loglevel=error "node-$_os-$_arch@$_pin" >&2 || { echo "node24.sh: install failed" >&2; return 1 2>/dev/null || exit 1; }
  fi
  export PATH="$_bin:$PATH"
fi
unset _need _have _pin _os _arch _cache _bin
unset -f _older
