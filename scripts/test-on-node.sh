#!/usr/bin/env bash
# Runs the unit tests under another Node.js major version, without touching the machine's Node.
#
#   scripts/test-on-node.sh 24 --node-apis     # the CI set on the newest Node 24
#   scripts/test-on-node.sh 22 --smoke         # the smoke set on the newest Node 22
#   scripts/test-on-node.sh 24                 # every unit test file but the left-out ones
#   scripts/test-on-node.sh 24 src/db          # vitest arguments narrow it further
#   scripts/test-on-node.sh /opt/node/bin/node # a Node binary you already have
#
# A version number fetches Node's official binary from npm (the `node-<os>-<arch>` package of the
# `node` family) into a cache outside the repository, NODE_VERSIONS_DIR (default
# ~/.cache/conformly/node/<major>); package.json is not touched. The same node_modules serve every
# version: the native modules are Node-API (@node-rs/argon2) or standalone binaries (esbuild).
#
# What runs is chosen here (why: docs/decisions/0009-node-22-and-24.md). These runs are for what
# changes with Node: APIs, module loading, native modules, crypto, fetch, streams, child
# processes, puppeteer's Node side. Node 20's `npm test` runs everything, Postgres included.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
  echo "usage: $0 <node major version | path to a node binary> [vitest arguments...]" >&2
  exit 2
fi
want=$1
shift

# Left out of the CI set: long files whose Node-side code a kept file drives the same way.
left_out=(
  # the engines against the W3C ACT corpus in Chromium; Node only serves the pages
  test/act/act-conformance.test.ts
  # pg-boss's leases with worker processes killed, on Postgres (not used here, see below)
  src/jobs/scan-worker-scale-out.postgres.test.ts
  # the engines on fixture pages in Chromium; scan-page keeps scanPage over the same tab pool
  test/scanner/fixture-site.test.ts
  test/scanner/classification.test.ts
  src/scanner/engines/keyboard/walk.test.ts
  # the CLI spawned with a Chromium of its own per run; cli/main keeps the same bin and launch
  src/cli/ci.test.ts
  src/cli/ci-recipes.test.ts
  src/cli/ci-pa11yci.test.ts
  # pa11y-ci beside conformly ci: both CLIs spawned on the same site; the package's own Node 22
  # and 24 runs are npm run pack:check's
  src/cli/pa11yci-side-by-side.test.ts
  # the API description linted and a client compiled with tsc: Node only runs the tools
  src/server/plugins/openapi-clients.test.ts
  # SARIF through Microsoft's validator binary: the renderer is pure and kept in sarif's unit tests
  src/reports/sarif.test.ts
)
# The smoke set (--smoke): PGlite and the migrations, pg-boss, argon2 and sessions, puppeteer and
# Chromium, the CLI as a child process.
smoke=(
  src/db/migrate.test.ts
  src/jobs/queues.test.ts
  src/server/auth/routes.test.ts
  src/scanner/scan-page.test.ts
  src/cli/main.test.ts
)
# The Node API set (--node-apis, CI's Node 24 run): the files whose code leans on what changes
# between Node versions (ADR 0009, amended): WebAssembly (PGlite), native modules (argon2),
# crypto (tokens, webhook signatures), child processes and signals, net/http/dns (the egress
# proxy, fetch, SMTP), streams and zlib (documents, ZIP, SSE), and puppeteer's Node side. The
# rest is the same JavaScript on every version, which Node 20 runs in full.
node_apis=(
  src/db/migrate.test.ts
  src/db/organisations-migration.test.ts
  src/jobs/queues.test.ts
  src/jobs/scan-worker.test.ts
  src/jobs/scan-worker-crash.test.ts
  src/jobs/site-audit.test.ts
  src/server/app.test.ts
  src/server/auth/routes.test.ts
  src/server/auth/google.test.ts
  src/server/plugins/hardening.test.ts
  src/server/plugins/security-headers.test.ts
  src/server/alerts/service.test.ts
  src/server/billing/stripe-webhook.test.ts
  src/server/billing/stripe-provider.test.ts
  src/server/scans/routes.test.ts
  src/scanner/net/address-class.test.ts
  src/scanner/net/egress-proxy.test.ts
  src/scanner/net/request-guard.test.ts
  src/scanner/net/safe-fetch.test.ts
  src/scanner/browser-launch.test.ts
  src/scanner/browser-pool.test.ts
  src/scanner/scan-page.test.ts
  src/scanner/discover/discover-pages.test.ts
  src/reports/vpat/docx.test.ts
  src/reports/statement.test.ts
  src/reports/html-report.test.ts
  test/documents/documents.test.ts
  src/cli/main.test.ts
  src/cli/signals.test.ts
  src/cli/config.test.ts
  src/library/scan-page.test.ts
)
selection=()
case "${1:-}" in
  --smoke)
    shift
    selection=("${smoke[@]}")
    ;;
  --node-apis)
    shift
    selection=("${node_apis[@]}")
    ;;
esac
excludes=()
for file in "${left_out[@]}"; do excludes+=(--exclude "$file"); done

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
  "${excludes[@]}" "${selection[@]}" "$@"
echo "test-on-node: Node $version passed in $((SECONDS - start)) s" >&2
