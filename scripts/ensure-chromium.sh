#!/usr/bin/env bash
# Makes sure the browser tests have a Chromium (the same order as e2e/chromium.ts):
#   1. CHROMIUM_PATH, when set, must name an executable;
#   2. Playwright's own Chromium, when `npx playwright install chromium` has installed it;
#   3. Debian's /usr/bin/chromium, installed here with apt-get when missing (Playwright cannot download its
#      browser on some machines, this project's build machine among them).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -n "${CHROMIUM_PATH:-}" ]]; then
  if [[ -x "$CHROMIUM_PATH" ]]; then exit 0; fi
  echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file" >&2
  exit 1
fi
playwright_chromium=$(node -e "process.stdout.write(require('@playwright/test').chromium.executablePath())")
if [[ -x "$playwright_chromium" ]]; then exit 0; fi
if [[ -x /usr/bin/chromium ]]; then exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
  echo "No Chromium found: installing Debian's chromium package" >&2
  if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  /usr/bin/chromium --version
  exit 0
fi
echo "No Chromium for the browser tests. Run \`npx playwright install chromium\`, or set CHROMIUM_PATH to a Chromium or Chrome executable." >&2
exit 1
