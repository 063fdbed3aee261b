#!/bin/sh
# Ansible dynamic inventory from the control plane (docs/service-discovery.md): the answer of
# GET /api/v1/sd/ansible is already an inventory script's --list answer, hostvars included, so this
# script only fetches it. Use it with Ansible's built-in script inventory plugin:
#   SVC_URL=https://cp.example.net SVC_TOKEN_FILE=~/.svc-inventory-token ansible-inventory -i ansible-inventory.sh --list
# Environment:
#   SVC_URL         the control plane's address (required)
#   SVC_TOKEN       an API token holding read:ansible-inventory, or
#   SVC_TOKEN_FILE  a file holding it (kept out of the environment of everything Ansible starts)
#   SVC_SD_QUERY    filters, e.g. site_id=2&tag=web (see the route's parameters)
#   SVC_CA_FILE     the CA bundle of a private certificate authority
set -eu

case "${1:-}" in
  --list) ;;
  # Every host's vars are in --list's _meta, so Ansible never needs to ask per host.
  --host) echo '{}'; exit 0 ;;
  *) echo "usage: $0 --list | --host <name>" >&2; exit 2 ;;
esac

: "${SVC_URL:?set SVC_URL to the control plane address, e.g. https://cp.example.net}"
if [ -n "${SVC_TOKEN_FILE:-}" ]; then
  token=$(cat -- "$SVC_TOKEN_FILE")
else
  token="${SVC_TOKEN:?set SVC_TOKEN or SVC_TOKEN_FILE to an API token holding read:ansible-inventory}"
fi
case "$token" in
  '' | *[!A-Za-z0-9_-]*) echo "$0: the token is not an API token (letters, digits, _ and - only)" >&2; exit 2 ;;
esac

url="${SVC_URL%/}/api/v1/sd/ansible"
if [ -n "${SVC_SD_QUERY:-}" ]; then url="$url?$SVC_SD_QUERY"; fi

# The token reaches curl on its standard input, not its command line, where ps would show it.
if ! body=$(printf 'header = "Authorization: Bearer %s"\n' "$token" |
  curl --silent --show-error --fail-with-body --max-time 60 --config - ${SVC_CA_FILE:+--cacert "$SVC_CA_FILE"} -- "$url"); then
  printf '%s: GET %s failed: %s\n' "$0" "$url" "$body" >&2
  exit 1
fi
printf '%s\n' "$body"
