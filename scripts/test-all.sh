#!/usr/bin/env bash
# `pnpm test:all` (CI: .ci/run): set up, install, build, lint, check the layers and run every test. Steps that do
# not need each other overlap, so the 2-core CI machine is never idle: lavapipe's and NVRTC's downloads run during the
# install and build, and the static checks run beside the build and jest; their output is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
source scripts/supported-node.sh

bash scripts/setup-system.sh --no-lavapipe
bash scripts/setup-lavapipe.sh >"$logs/lavapipe" 2>&1 &
lavapipe=$!
# NVRTC from pip's index, so the cuda backend's kernels compile to PTX in jest (no GPU needed); also in the background.
bash scripts/setup-nvrtc.sh >"$logs/nvrtc" 2>&1 &
nvrtc=$!
pnpm install --frozen-lockfile

# Static checks run beside the rest, their output printed at the end. Those that read only the sources (spec types,
# lint, layers) start before the build, which runs on one core (tsc -b); the schema check and the consumer test (packs
# every package, installs the tarballs outside the workspace) need the build.
checks=()
pids=()
check() {
  local i=${#checks[@]}
  checks+=("$1")
  bash -c "$1" >"$logs/check$i" 2>&1 &
  pids+=($!)
}
check 'pnpm typecheck:specs'
check 'pnpm lint'
check 'pnpm deps:check'
bash packages/compute/scripts/build-simd-kernels.sh --check
pnpm build
check 'node scripts/generate-report-schemas.cjs --check'
check 'pnpm test:consumer'
# Jest starts once lavapipe is ready (or has said why not): the WebGPU specs decide at load whether they run.
wait "$lavapipe" || echo "test-all: lavapipe set-up failed; WebGPU specs will be skipped" >&2
cat "$logs/lavapipe" >&2
wait "$nvrtc" || echo "test-all: NVRTC set-up failed; the cuda kernel specs will be skipped" >&2
cat "$logs/nvrtc" >&2
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
