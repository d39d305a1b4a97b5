#!/usr/bin/env bash
# NVRTC (NVIDIA's run-time CUDA C compiler) for the cuda backend's kernel specs: it compiles CUDA C to PTX with no GPU
# and no driver, so CI checks that every kernel compiles. It comes from pip's index as the `nvidia-cuda-nvrtc` wheel
# (the one PyTorch's CUDA wheels depend on); only its two libraries are unpacked, nothing is installed.
#
# Result (idempotent; a second run only checks a file):
#   $MAOU_NVRTC_DIR/lib/libnvrtc.so.N and libnvrtc-builtins.so.N.M, and .complete naming the wheel
# Default folder: <repo>/.cache/nvrtc (git-ignored). Exits 0 and says why when it cannot set up; the specs then skip
# and say why. Once .complete exists they must run.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dir="${MAOU_NVRTC_DIR:-$repo/.cache/nvrtc}"
say() { echo "setup-nvrtc: $*" >&2; }
[ -f "$dir/.complete" ] && exit 0
if [ "$(uname -sm)" != "Linux x86_64" ]; then
  say "NVRTC's wheel is for Linux x86-64, this is $(uname -sm); the NVRTC specs will be skipped"
  exit 0
fi
if ! python3 -m pip --version >/dev/null 2>&1; then
  say "no python3 -m pip to download nvidia-cuda-nvrtc; the NVRTC specs will be skipped"
  exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if ! python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmp" 'nvidia-cuda-nvrtc>=12,<14' >"$tmp/pip.log" 2>&1; then
  say "pip could not download nvidia-cuda-nvrtc (pip's index: $(python3 -m pip config list 2>/dev/null | tr '\n' ' ')); the NVRTC specs will be skipped"
  cat "$tmp/pip.log" >&2
  exit 0
fi
wheel="$(ls "$tmp"/nvidia_cuda_nvrtc-*.whl)"
rm -rf "$dir"
mkdir -p "$dir/lib"
# The compiler and its builtins; the wheel's .alt. variants (another C++ ABI) are not needed.
python3 - "$wheel" "$dir/lib" <<'EOF'
import os, re, sys, zipfile
wheel, dest = sys.argv[1], sys.argv[2]
names = [n for n in zipfile.ZipFile(wheel).namelist() if re.search(r'/lib/libnvrtc(-builtins)?\.so\.[0-9.]+$', n)]
if not names:
    sys.exit(f'{wheel}: no lib/libnvrtc.so.* inside')
with zipfile.ZipFile(wheel) as z:
    for n in names:
        with z.open(n) as src, open(os.path.join(dest, os.path.basename(n)), 'wb') as out:
            out.write(src.read())
EOF
basename "$wheel" >"$dir/.complete"
say "unpacked $(ls "$dir/lib" | tr '\n' ' ')from $(basename "$wheel") into $dir"
