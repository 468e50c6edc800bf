#!/usr/bin/env bash
# The two-server run (docs/ADAPTERS.md): three throwaway clusters from scripts/with-postgres.sh, each on a
# socket of its own: two shards and a coordinator that holds their partitions as postgres_fdw foreign tables.
#   bash scripts/two-servers.sh [--records 10000] [--runs 1] [--plans-out FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
export TWO_SERVERS_ARGS="$*"
env -u POSTGRES_URL bash scripts/with-postgres.sh bash -c '
  export SHARD_A="$POSTGRES_URL"
  env -u POSTGRES_URL bash scripts/with-postgres.sh bash -c "
    export SHARD_URLS=\"\$SHARD_A,\$POSTGRES_URL\"
    env -u POSTGRES_URL bash scripts/with-postgres.sh bash -c \"npx tsx bench/two-servers.ts \$TWO_SERVERS_ARGS\"
  "
'
