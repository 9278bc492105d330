#!/usr/bin/env bash
# Runs the unit tests under another Node.js major version, without touching the machine's Node.
#
#   scripts/test-on-node.sh 22                 # the CI subset on the newest Node 22
#   scripts/test-on-node.sh 24 src/db          # vitest arguments narrow it further
#   scripts/test-on-node.sh /opt/node/bin/node # a Node binary you already have
#
# A version number fetches Node's official binary from npm (the `node-<os>-<arch>` package of the
# `node` family) into a cache outside the repository, NODE_VERSIONS_DIR (default
# ~/.cache/conformly/node/<major>); package.json is not touched. The same node_modules serve every
# version: the native modules are Node-API (@node-rs/argon2) or standalone binaries (esbuild).
#
# Left out (docs/decisions/0009-node-22-and-24.md): the ACT conformance test, which measures the
# engines in Chromium and takes minutes, and the Postgres scale-out test, which kills worker
# processes; Node 20's `npm test` runs both. The data and queue tests run on PGlite only here.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
  echo "usage: $0 <node major version | path to a node binary> [vitest arguments...]" >&2
  exit 2
fi
want=$1
shift

if [ -x "$want" ] && [ ! -d "$want" ]; then
  node_bin=$want
else
  case "$want" in
    '' | *[!0-9]*)
      echo "test-on-node: '$want' is neither a Node major version nor an executable" >&2
      exit 2
      ;;
  esac
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) echo "test-on-node: no Node package for $(uname -s)" >&2 && exit 2 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "test-on-node: no Node package for $(uname -m)" >&2 && exit 2 ;;
  esac
  package="node-$os-$arch"
  dir="${NODE_VERSIONS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/conformly/node}/$want"
  node_bin="$dir/node_modules/$package/bin/node"
  mkdir -p "$dir"
  # The newest release of that major; a cached one serves when the registry is out of reach.
  if ! npm install --prefix "$dir" --no-save --no-package-lock --no-fund --no-audit --loglevel=error \
    "$package@$want" >&2; then
    [ -x "$node_bin" ] || exit 1
    echo "test-on-node: registry unreachable, using the cached $("$node_bin" --version)" >&2
  fi
fi

version=$("$node_bin" --version)
echo "test-on-node: unit tests on Node $version ($node_bin)" >&2
start=$SECONDS
# PATH first, so the tests' child processes (`tsx`, the CLI, scan workers) run on the same Node.
# On PGlite only: the second run of the data and queue tests on PostgreSQL checks the database
# server, not Node, and Node 20's `npm test` does it (ADR 0009).
PATH="$(dirname "$node_bin"):$PATH" TEST_DATABASE_URL= "$node_bin" node_modules/vitest/vitest.mjs run \
  --exclude 'test/act/act-conformance.test.ts' \
  --exclude 'src/jobs/scan-worker-scale-out.postgres.test.ts' \
  "$@"
echo "test-on-node: Node $version passed in $((SECONDS - start)) s" >&2
