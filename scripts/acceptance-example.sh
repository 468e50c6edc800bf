#!/usr/bin/env bash
# The example acceptance project (examples/acceptance) as a user's project runs it: it installs this package by
# path and drives the built app through `context-compiler/playwright`. Needs `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/../examples/acceptance"
npm ci --no-audit --no-fund --loglevel=error
if [ -z "${CHROMIUM_PATH:-}" ] && [ -x /usr/bin/chromium ]; then export CHROMIUM_PATH=/usr/bin/chromium; fi
npx playwright test
