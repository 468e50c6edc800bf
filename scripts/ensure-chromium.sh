#!/usr/bin/env bash
# Playwright cannot download browsers here: the browser tests use Debian's Chromium at /usr/bin/chromium.
set -euo pipefail
if [[ -x /usr/bin/chromium ]]; then exit 0; fi
echo "Chromium not found at /usr/bin/chromium: installing Debian's chromium package" >&2
if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; else SUDO=; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version
