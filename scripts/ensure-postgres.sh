#!/usr/bin/env bash
# Makes sure a PostgreSQL server binary set (initdb, postgres, pg_ctl) is on this machine and
# prints the directory that holds it as the last line on stdout; everything else goes to stderr.
# The audit store's tests start their own throwaway server from these binaries
# (test/support/postgres-server.ts); the cluster Debian's package may create is never used.
set -euo pipefail

# A directory counts only if it holds all three, so a client-only install is not mistaken for
# a server.
is_server_bin_dir() {
  [[ -x "$1/initdb" && -x "$1/postgres" && -x "$1/pg_ctl" ]]
}

# Debian keeps each major version's server binaries off PATH, in /usr/lib/postgresql/<major>/bin;
# other systems (Homebrew, Fedora, Nix) put them on PATH. The newest major version wins.
find_server_bin_dir() {
  local dir
  while IFS= read -r dir; do
    if is_server_bin_dir "$dir"; then
      echo "$dir"
      return 0
    fi
  done < <(compgen -G '/usr/lib/postgresql/*/bin' | sort --version-sort --reverse)
  local on_path
  if on_path=$(command -v postgres); then
    dir=$(dirname "$(readlink -f "$on_path")")
    if is_server_bin_dir "$dir"; then
      echo "$dir"
      return 0
    fi
  fi
  return 1
}

install_postgres_package() {
  local as_root=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      as_root=(sudo -n)
    else
      echo "ensure-postgres: no PostgreSQL server found, and installing one needs root." >&2
      echo "help: install the Debian package \`postgresql\` (apt-get install postgresql), or put a PostgreSQL server's initdb, postgres and pg_ctl on PATH" >&2
      exit 1
    fi
  fi
  if ! command -v apt-get >/dev/null; then
    echo "ensure-postgres: no PostgreSQL server found, and this machine has no apt-get to install one." >&2
    echo "help: install a PostgreSQL server and put its initdb, postgres and pg_ctl on PATH" >&2
    exit 1
  fi
  echo "ensure-postgres: no PostgreSQL server found; installing the Debian package \`postgresql\`" >&2
  # apt's progress goes to stderr so that stdout carries only the bin dir.
  "${as_root[@]}" apt-get update >&2
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends postgresql >&2
}

if bin_dir=$(find_server_bin_dir); then
  echo "$bin_dir"
  exit 0
fi
install_postgres_package
if ! bin_dir=$(find_server_bin_dir); then
  echo "ensure-postgres: the package \`postgresql\` installed, but no directory holds initdb, postgres and pg_ctl" >&2
  exit 1
fi
echo "$bin_dir"
