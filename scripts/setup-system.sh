#!/usr/bin/env bash
# System packages some tests need (headless Chromium for HTML reports, Mesa's lavapipe for WebGPU).
# Installs only what is missing, and only where apt-get and root are available.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "setup-system: missing ${need[*]}; the tests that need them will be skipped" >&2
  fi
fi
