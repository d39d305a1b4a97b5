# Sourced by the second halves of the packed GPU runs (bench-gpu-remote.sh, cuda-route-remote.sh), which run on a GPU
# machine with no Node and no network. Set before sourcing: name (pnpm script), pack (folder), files (in the pack),
# run_line (the device call), dry_line (what to run without a GPU), and the script's arguments in "$@".
dry=0
for a in "$@"; do [ "$a" = --dry-run ] && dry=1; done
for f in "${files[@]}"; do
  [ -e "$pack/$f" ] || { echo "$name: $pack/$f missing: run pnpm $name (it packs) on a machine with Node first" >&2; exit 2; }
done
if [ "$dry" = 0 ] && ! command -v nvidia-smi >/dev/null; then
  echo "$name: packed into $pack; no NVIDIA GPU here (nvidia-smi not found). Run on a GPU machine:" >&2
  echo "  device tool: $run_line" >&2
  echo "$dry_line" >&2
  exit 2
fi
pack=$(cd "$pack" && pwd)
# xz, or Python's lzma where the image has no xz
unxz() { if command -v xz >/dev/null; then xz -dc "$1" >"$2"; else python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; fi; }
