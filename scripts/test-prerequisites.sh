#!/usr/bin/env bash
# Makes sure the Debian packages the tests run are present (scripts/test-packages.txt, or the list given
# as $1), before any test runs: `npm test` runs this first (package.json's pretest), and .ci/run through it.
# Missing packages are installed with apt-get when this runs as root; otherwise it prints one line naming
# them and the command to run, and fails, instead of letting tests fail one by one for a missing tool.
# Only bash builtins before apt-get, so it works under any PATH.
set -u
here="${0%/*}"
[ "$here" = "$0" ] && here=.
list="${1:-$here/test-packages.txt}"

# Sets `missing` to the packages of the list whose command is not found (each package once).
check() {
  missing=()
  local package command found dir
  while read -r package command _ || [ -n "${package:-}" ]; do
    case "${package:-#}" in '#'*) continue ;; esac
    found=""
    if [[ "$command" == /* ]]; then
      [ -x "$command" ] && found=1
    else
      command -v "$command" >/dev/null 2>&1 && found=1
      # /usr/sbin and /sbin are not on a user's PATH on Debian (snmpd, named).
      for dir in /usr/sbin /sbin; do [ -x "$dir/$command" ] && found=1; done
    fi
    [ -n "$found" ] || [[ " ${missing[*]} " == *" $package "* ]] || missing+=("$package")
  done <"$list"
}

[ -r "$list" ] || { echo "test prerequisites: cannot read $list" >&2; exit 1; }
check
[ ${#missing[@]} -eq 0 ] && exit 0

install="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$EUID" -ne 0 ]; then
  echo "The tests need these Debian packages, which are missing: ${missing[*]}. Install them, then run npm test again: sudo apt-get update && sudo $install" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "The tests need these Debian packages, which are missing: ${missing[*]}; there is no apt-get here to install them ($install on Debian or Ubuntu)." >&2
  exit 1
fi
echo "Installing the Debian packages the tests need: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }; then
  echo "Could not install the Debian packages the tests need (${missing[*]}): apt-get failed, see above." >&2
  exit 1
fi
check
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installed, but their commands are still not found: ${missing[*]} (see $list)." >&2
  exit 1
fi
