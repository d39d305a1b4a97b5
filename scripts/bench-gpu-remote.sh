#!/usr/bin/env bash
# Second half of `pnpm bench:gpu`: runs the packed GPU bench (scripts/bench-gpu.ts) where the pack was carried to,
# a GPU machine with no Node and no network. Unpacks Node and Dawn into a temporary folder, brings the Vulkan loader
# and libglvnd where the image lacks them, points the loader at NVIDIA's ICD, and writes gpu-bench.md, .jsonl and
# .log under $OUT (or .cache/gpu-bench-out). `--dry-run` runs every row but PyTorch at tiny batches on whatever
# adapter Vulkan offers (lavapipe: `source .cache/lavapipe/env.sh` first). See docs/webgpu.md.
set -euo pipefail
cd "$(dirname "$0")/.."
pack="${GPU_BENCH_PACK:-.cache/gpu-bench}"
out="${OUT:-$PWD/.cache/gpu-bench-out}"
name=bench:gpu
files=(node.xz dawn.node.xz bench/scripts/bench-gpu.js)
run_line="run(command='bash scripts/bench-gpu-remote.sh', carry=['$pack'], timeout_s=480)"
dry_line='or check the rows on lavapipe: source .cache/lavapipe/env.sh && pnpm bench:gpu -- --dry-run'
source scripts/remote-pack.sh
mkdir -p "$out"
work=$(mktemp -d /tmp/gpu-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
t0=$(date +%s)
cp -r "$pack/bench" "$work/bench"
unxz "$pack/node.xz" "$work/node"
unxz "$pack/dawn.node.xz" "$work/bench/node_modules/webgpu/dist/linux-x64/dawn.node"
chmod +x "$work/node"
if [ "$dry" = 0 ]; then
  libs=$(ldconfig -p)
  if ! grep -q 'libvulkan\.so\.1' <<<"$libs" || ! grep -q 'libGLdispatch\.so\.0' <<<"$libs"; then
    for f in "$pack"/gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
  fi
  icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$icd" ]; then export VK_DRIVER_FILES="$icd" VK_ICD_FILENAMES="$icd"; fi
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv 2>&1 | tee "$out/gpu-bench.log"
fi
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
echo "pack: $(tr -d '\n ' <"$pack/pack.json"); unpacked in $(($(date +%s) - t0)) s" | tee -a "$out/gpu-bench.log"
"$work/node" "$work/bench/scripts/bench-gpu.js" --out "$out" --peer "$pack/peer/torch_peer.py" "$@" 2>&1 |
  tee -a "$out/gpu-bench.log"
