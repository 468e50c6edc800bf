#!/usr/bin/env bash
# The two-server run (docs/ADAPTERS.md): three throwaway clusters from scripts/with-postgres.sh, each on a
# socket of its own: two shards and a coordinator that holds their partitions as postgres_fdw foreign tables.
#   bash scripts/two-servers.sh [--records 10000] [--runs 1] [--plans-out FILE]
# COORDINATOR_URL names a server to be the coordinator instead of a third throwaway cluster: with
# --loaded-schema NAME --contract FILE, over records already loaded there.
set -euo pipefail
cd "$(dirname "$0")/.."
export TWO_SERVERS_ARGS="$*"
env -u POSTGRES_URL bash scripts/with-postgres.sh bash -c '
  export SHARD_A="$POSTGRES_URL"
  env -u POSTGRES_URL bash scripts/with-postgres.sh bash -c "
    export SHARD_URLS=\"\$SHARD_A,\$POSTGRES_URL\"
    if [[ -n \"\${COORDINATOR_URL:-}\" ]]; then export POSTGRES_URL=\"\$COORDINATOR_URL\"; else unset POSTGRES_URL; fi
    bash scripts/with-postgres.sh bash -c \"npx tsx bench/two-servers.ts \$TWO_SERVERS_ARGS\"
  "
'
