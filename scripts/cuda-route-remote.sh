#!/usr/bin/env bash
# Second half of `pnpm cuda:route`: runs the packed CUDA route check (scripts/cuda-route-check.ts) on a GPU machine with
# no Node and no network. Unpacks Node into a temporary folder and writes cuda-route.md, .jsonl and .log under $OUT (or
# .cache/cuda-route-out). `--dry-run` needs no GPU: shapes, library discovery (it says why it fails), and the PyTorch
# side's dry run. See docs/cuda.md.
set -euo pipefail
cd "$(dirname "$0")/.."
pack="${CUDA_ROUTE_PACK:-.cache/cuda-route}"
out="${OUT:-$PWD/.cache/cuda-route-out}"
name=cuda:route
files=(node.xz bench/scripts/cuda-route-check.js)
run_line="run(command='bash scripts/cuda-route-remote.sh', carry=['$pack'], timeout_s=560)"
dry_line='or check everything but the timings here: pnpm cuda:route -- --dry-run'
source scripts/remote-pack.sh
mkdir -p "$out"
work=$(mktemp -d /tmp/cuda-route.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -r "$pack/bench" "$work/bench"
unxz "$pack/node.xz" "$work/node"
chmod +x "$work/node"
{ [ "$dry" = 1 ] || nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; } 2>&1 | tee "$out/cuda-route.log"
echo "pack: $(tr -d '\n ' <"$pack/pack.json")" | tee -a "$out/cuda-route.log"
"$work/node" "$work/bench/scripts/cuda-route-check.js" --out "$out" --torch-script scripts/cuda-route-torch.py "$@" 2>&1 |
  tee -a "$out/cuda-route.log"
