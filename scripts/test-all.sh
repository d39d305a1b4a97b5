#!/usr/bin/env bash
# `pnpm test:all` (CI: .ci/run): set up, install, build, lint, check the layers and run every test. Steps that do
# not need each other overlap, so the 2-core CI machine is never idle: lavapipe's download runs during the install
# and build, and the static checks (spec types, lint, layers) run beside jest; their output is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

bash scripts/setup-system.sh --no-lavapipe
bash scripts/setup-lavapipe.sh >"$logs/lavapipe" 2>&1 &
lavapipe=$!
pnpm install --frozen-lockfile
bash packages/compute/scripts/build-simd-kernels.sh --check
pnpm build

# The consumer test (packs every package, installs the tarballs outside the workspace) needs only the build.
checks=('node scripts/generate-report-schemas.cjs --check' 'pnpm typecheck:specs' 'pnpm lint' 'pnpm deps:check'
  'pnpm test:consumer')
pids=()
for i in "${!checks[@]}"; do
  bash -c "${checks[$i]}" >"$logs/check$i" 2>&1 &
  pids+=($!)
done
# Jest starts once lavapipe is ready (or has said why not): the WebGPU specs decide at load whether they run.
wait "$lavapipe" || echo "test-all: lavapipe set-up failed; WebGPU specs will be skipped" >&2
cat "$logs/lavapipe" >&2
status=0
pnpm test || status=$?
for i in "${!checks[@]}"; do
  if wait "${pids[$i]}"; then echo "test-all: ${checks[$i]}: ok"; else
    echo "test-all: ${checks[$i]}: FAILED" >&2
    cat "$logs/check$i" >&2
    status=1
  fi
done
exit "$status"
