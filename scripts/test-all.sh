#!/usr/bin/env bash
# Every check, in the order a failure is cheapest to find. CI runs exactly this (via .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
# On a supported Node line (22 or 24): the machine's own, else Node 22 fetched from the npm registry.
if [[ -z "${CONTEXT_COMPILER_NODE:-}" ]]; then exec env CONTEXT_COMPILER_NODE=1 bash scripts/with-node.sh bash scripts/test-all.sh "$@"; fi
echo "Testing on Node $(node --version)"
bash scripts/ensure-chromium.sh
# The CLI, library and page-object bundles first: the browser tests import the page object by the package's own
# name, so the typecheck reads its declarations from dist-playwright/.
npm run build:cli
npm run typecheck
npm run lint
npm run check:format
npm run check:cycles
npm run check:unused
# The unit tests include the PostgreSQL adapter's: a throwaway cluster (or the server POSTGRES_URL names) for their run.
bash scripts/with-postgres.sh npm run test:unit
npx vite build
# The tarball as a user installs it, in a project of its own: CLI, library, page object and serve.
node scripts/installed-package-test.mjs
npm run test:e2e
bash scripts/acceptance-example.sh
