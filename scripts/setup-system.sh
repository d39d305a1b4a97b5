#!/usr/bin/env bash
# System packages some tests need (headless Chromium for HTML reports, Mesa's lavapipe for WebGPU, clang for wasm kernels,
# g++ for the native kernels).
# Installs only what is missing, and only where apt-get and root are available.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# clang + lld rebuild the WebAssembly SIMD kernels to check the committed module (scripts/build-simd-kernels.sh).
{ command -v clang >/dev/null 2>&1 && command -v wasm-ld >/dev/null 2>&1; } || need+=(clang lld)
# The reference lz4 command writes the frames whose checksums the LZ4 decoder spec verifies.
command -v lz4 >/dev/null 2>&1 || need+=(lz4)
# g++ builds the native convolution kernels at `pnpm install` (packages/compute/scripts/build-native-kernels.cjs); their specs need them.
command -v g++ >/dev/null 2>&1 || need+=(g++)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "setup-system: missing ${need[*]}; the tests that need them will be skipped" >&2
  fi
fi

# pyarrow writes the layout fixtures and proves our .feather files round-trip with maou's writer. The layout specs
# (foreign-layouts, data-file-kinds, feather-io, hcpe-io) fail without it rather than skip, so CI must have it: python3 and pip come from
# apt where they are missing, then pip installs pyarrow (Debian's python3-pyarrow as a last resort).
as_root_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; }
if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
  as_root_apt python3 python3-pip python3-numpy || true
fi
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import pyarrow, numpy' >/dev/null 2>&1; then
  # Debian marks its Python as externally managed; a per-user install leaves the system packages alone.
  { python3 -m pip install -q pyarrow numpy || python3 -m pip install -q --user --break-system-packages pyarrow numpy || as_root_apt python3-pyarrow python3-numpy; } >/dev/null 2>&1 \
    || echo "setup-system: pyarrow could not be installed; the specs that need it will fail" >&2
fi

# Mesa's lavapipe (a software Vulkan driver) lets the WebGPU specs train without a GPU. scripts/test-all.sh passes
# --no-lavapipe and runs it alongside the install and build instead (its download is the slow part).
[ "${1:-}" = --no-lavapipe ] ||
  bash "$(dirname "$0")/setup-lavapipe.sh" || echo "setup-system: lavapipe set-up failed; WebGPU specs will be skipped" >&2
