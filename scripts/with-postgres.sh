#!/usr/bin/env bash
# Runs a command with POSTGRES_URL naming a PostgreSQL server: the one POSTGRES_URL already names, or else a
# throwaway cluster started here (initdb in a temporary folder, owned by a non-root user, reached only through
# a socket in that folder, so no port can clash) and stopped and removed however the command ends.
# Where PostgreSQL is missing it is installed with apt-get, as scripts/ensure-chromium.sh does for Chromium.
#   bash scripts/with-postgres.sh npx vitest run src/adapters
set -euo pipefail
if [[ $# -eq 0 ]]; then
  echo "usage: bash scripts/with-postgres.sh COMMAND [ARGUMENT]..." >&2
  exit 1
fi
if [[ -n "${POSTGRES_URL:-}" ]]; then exec "$@"; fi

find_bindir() {
  if command -v pg_config >/dev/null 2>&1 && [[ -x "$(pg_config --bindir)/initdb" ]]; then pg_config --bindir; return; fi
  local newest
  newest=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -n "$newest" && -x "$newest/initdb" ]]; then echo "$newest"; fi
}

bindir=$(find_bindir)
if [[ -z "$bindir" ]]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "No PostgreSQL found (no initdb) and no apt-get to install it: install PostgreSQL 15 or later, or set POSTGRES_URL to a server." >&2
    exit 1
  fi
  echo "No PostgreSQL found: installing Debian's postgresql package" >&2
  if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql postgresql-contrib >/dev/null
  bindir=$(find_bindir)
  if [[ -z "$bindir" ]]; then echo "apt-get installed postgresql but no initdb was found" >&2; exit 1; fi
fi

folder=$(mktemp -d -t context-compiler-pg.XXXXXX)
# initdb refuses to run as root: the cluster belongs to the postgres user (Debian's package creates it).
run_as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    if ! id postgres >/dev/null 2>&1; then useradd --system --no-create-home postgres; fi
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}
if [[ $(id -u) -eq 0 ]]; then chown postgres "$folder"; fi

stop_cluster() {
  run_as_owner "$bindir/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$folder"
}
trap stop_cluster EXIT

run_as_owner "$bindir/initdb" -D "$folder/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$folder/initdb.log" 2>&1 || {
  cat "$folder/initdb.log" >&2
  exit 1
}
# A throwaway cluster: durability is not wanted, speed is. wal_level=minimal (which needs max_wal_senders=0)
# lets a load's COPY into the tables it created in the same transaction skip the WAL; a larger max_wal_size
# and checkpoint_timeout keep checkpoints out of a long load (the load sets its own memory for its index builds).
if ! run_as_owner "$bindir/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
  -o "-c listen_addresses='' -k $folder -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c wal_level=minimal -c max_wal_senders=0 -c max_wal_size=8GB -c checkpoint_timeout=30min" start >/dev/null; then
  cat "$folder/server.log" >&2
  exit 1
fi
export POSTGRES_URL="postgresql://postgres@localhost/postgres?host=$folder"
echo "$("$bindir/postgres" --version) started for the tests (socket in $folder)" >&2
"$@"
