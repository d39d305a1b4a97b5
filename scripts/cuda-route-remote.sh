#!/usr/bin/env bash
# Second half of `pnpm cuda:route`: runs the packed CUDA route check (scripts/cuda-route-check.ts) on a GPU machine with
# no Node and no network. Unpacks Node into a temporary folder and writes cuda-route.md, .jsonl and .log under $OUT (or
# .cache/cuda-route-out). `--dry-run` needs no GPU: shapes, library discovery (it says why it fails), and the PyTorch
# side's dry run. See docs/cuda.md.
set -euo pipefail
cd "$(dirname "$0")/.."
pack="${CUDA_ROUTE_PACK:-.cache/cuda-route}"
out="${OUT:-$PWD/.cache/cuda-route-out}"
dry=0
for a in "$@"; do [ "$a" = --dry-run ] && dry=1; done
for f in node.xz bench/scripts/cuda-route-check.js; do
  [ -e "$pack/$f" ] || { echo "cuda:route: $pack/$f missing: run pnpm cuda:route (it packs) on a machine with Node first" >&2; exit 2; }
done
if [ "$dry" = 0 ] && ! command -v nvidia-smi >/dev/null; then
  echo "cuda:route: packed into $pack; no NVIDIA GPU here (nvidia-smi not found). Run on a GPU machine:" >&2
  echo "  device tool: run(command='bash scripts/cuda-route-remote.sh', carry=['$pack'], timeout_s=600)" >&2
  echo "or check everything but the timings here: pnpm cuda:route -- --dry-run" >&2
  exit 2
fi
pack=$(cd "$pack" && pwd)
mkdir -p "$out"
work=$(mktemp -d /tmp/cuda-route.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -r "$pack/bench" "$work/bench"
unxz() { if command -v xz >/dev/null; then xz -dc "$1" >"$2"; else python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; fi; }
unxz "$pack/node.xz" "$work/node"
chmod +x "$work/node"
{ [ "$dry" = 1 ] || nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; } 2>&1 | tee "$out/cuda-route.log"
echo "pack: $(tr -d '\n ' <"$pack/pack.json")" | tee -a "$out/cuda-route.log"
"$work/node" "$work/bench/scripts/cuda-route-check.js" --out "$out" --torch-script scripts/cuda-route-torch.py "$@" 2>&1 |
  tee -a "$out/cuda-route.log"
