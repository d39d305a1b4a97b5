#!/usr/bin/env bash
# CPU seconds of jest suites, each alone: one jest per suite, one worker, an empty Mesa shader cache, user + sys of
# jest and every program it started (what a suite costs the 2-core CI machine, whatever the load; wall times are
# not). The figures order scripts/jest-sequencer.cjs.
#
#   bash scripts/suite-cpu.sh packages/library/src/batch-study.spec.ts ...   (prints: cpu_s  wall_s  exit  suite)
set -uo pipefail
cd "$(dirname "$0")/.."
[ -f .cache/lavapipe/env.sh ] && source .cache/lavapipe/env.sh
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for suite in "$@"; do
  mkdir "$scratch/mesa"
  MESA_SHADER_CACHE_DIR="$scratch/mesa" /usr/bin/time -f '%e %U %S' -o "$scratch/time" \
    node node_modules/jest/bin/jest.js --maxWorkers=1 "$suite" >"$scratch/log" 2>&1
  code=$?
  read -r wall user sys <"$scratch/time"
  awk -v u="$user" -v s="$sys" -v w="$wall" -v c="$code" -v f="$suite" 'BEGIN { printf "%7.1f %7.1f %4d  %s\n", u + s, w, c, f }'
  [ "$code" = 0 ] || tail -n 30 "$scratch/log" >&2
  rm -rf "$scratch/mesa"
done
