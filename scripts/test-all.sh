#!/usr/bin/env bash
# Every check, in the order a failure is cheapest to find. CI runs exactly this (via .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
npm run typecheck
npm run lint
# The unit tests include the PostgreSQL adapter's: a throwaway cluster (or the server POSTGRES_URL names) for their run.
bash scripts/with-postgres.sh npm run test:unit
npm run build
npm run test:e2e
bash scripts/acceptance-example.sh
