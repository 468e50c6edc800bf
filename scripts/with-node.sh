#!/usr/bin/env bash
# Runs a command on a supported Node line (22 or 24, the maintained LTS lines package.json's engines names):
# the machine's own Node when it is one of them, else Node 22 from the npm registry's platform package
# (node-<platform>-<arch>, the binaries the registry's `node` package installs), kept in node_modules/.cache.
#   bash scripts/with-node.sh npm run test:unit
set -euo pipefail
if [[ $# -eq 0 ]]; then
  echo "usage: bash scripts/with-node.sh COMMAND [ARGUMENT]..." >&2
  exit 1
fi
NODE_RELEASE=22.23.5
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [[ $major == 22 || $major == 24 ]]; then exec "$@"; fi

root=$(cd "$(dirname "$0")/.." && pwd)
platform=$(node -p 'process.platform === "win32" ? "win" : process.platform' 2>/dev/null || uname -s | tr '[:upper:]' '[:lower:]')
arch=$(node -p 'process.arch' 2>/dev/null || echo x64)
package="node-$platform-$arch"
prefix="$root/node_modules/.cache/node-$NODE_RELEASE"
bin="$prefix/node_modules/$package/bin"
if [[ ! -x "$bin/node" ]]; then
  echo "Node $(node --version 2>/dev/null || echo '(none)') is not a supported line: fetching Node $NODE_RELEASE ($package) from the npm registry" >&2
  mkdir -p "$prefix"
  npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$prefix" "$package@$NODE_RELEASE" >&2
fi
export PATH="$bin:$PATH"
exec "$@"
