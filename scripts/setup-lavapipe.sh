#!/usr/bin/env bash
# Mesa's lavapipe (software Vulkan) new enough for Dawn, so the WebGPU specs run without a GPU.
#
# Debian 12's own Mesa 22.3 is rejected by Dawn (no shaderUniform*ArrayDynamicIndexing), so the
# driver comes from bookworm-backports (Mesa 25.x). Nothing is added to /etc/apt and no Mesa
# package is installed system-wide: the .debs are downloaded with a private apt configuration,
# unpacked with `dpkg -x` into the cache folder, and the ICD json is rewritten to an absolute path.
# The only system change is the Vulkan loader (libvulkan1, Debian 12's own), installed when running
# as root; otherwise the loader stays in the cache and env.sh puts it on LD_LIBRARY_PATH.
#
# Result (idempotent; a second run only checks files):
#   $MAOU_LAVAPIPE_DIR/lvp_icd.json   point VK_DRIVER_FILES / VK_ICD_FILENAMES at it
#   $MAOU_LAVAPIPE_DIR/env.sh         `source` it for a shell that uses lavapipe
# Default folder: <repo>/.cache/lavapipe (git-ignored). Exits 0 and says why when it cannot set up.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dir="${MAOU_LAVAPIPE_DIR:-$repo/.cache/lavapipe}"
arch="$(dpkg --print-architecture 2>/dev/null || echo unknown)"
multiarch="$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)"
[ "$arch" = arm64 ] && multiarch=aarch64-linux-gnu
[ "$arch" = amd64 ] && multiarch=x86_64-linux-gnu
say() { echo "setup-lavapipe: $*" >&2; }

have_loader() { ldconfig -p 2>/dev/null | grep 'libvulkan\.so\.1 ' >/dev/null; }

write_env() {
  cat >"$dir/env.sh" <<EOF
# source me: selects the local lavapipe ICD for Vulkan (and Dawn / WebGPU)
export VK_DRIVER_FILES="$dir/lvp_icd.json"
export VK_ICD_FILENAMES="$dir/lvp_icd.json"
export XDG_RUNTIME_DIR="\${XDG_RUNTIME_DIR:-/tmp}"
EOF
  have_loader || echo "export LD_LIBRARY_PATH=\"$dir/root/usr/lib/$multiarch\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\"" >>"$dir/env.sh"
}

install_loader() {
  have_loader && return 0
  if [ "$(id -u)" = 0 ]; then
    # Debian 12's own loader (depends on libc6 only); the lavapipe driver itself stays local.
    dpkg -i "$dir"/debs/libvulkan1_*.deb >/dev/null && ldconfig && return 0
  fi
  say "no system Vulkan loader and not root: source $dir/env.sh before running node"
}

if [ -f "$dir/lvp_icd.json" ] && [ -f "$dir/.complete" ]; then
  install_loader
  write_env
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
  say "needs apt-get and dpkg (Debian/Ubuntu); the WebGPU specs will be skipped"
  exit 0
fi
codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
mkdir -p "$dir/debs" "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial"
if [ "$codename" = bookworm ]; then
  suite=bookworm-backports
  printf 'deb http://deb.debian.org/debian bookworm-backports main\ndeb http://deb.debian.org/debian bookworm main\n' >"$dir/apt/sources.list"
  opts=(-qq -o "Dir::Etc::SourceList=$dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache" -o Debug::NoLocking=1
    -o APT::Sandbox::User=root)
  pkg="mesa-vulkan-drivers/$suite"
else
  # Newer releases already ship Mesa >= 23: take them from the system's own sources.
  suite="${codename:-system}"
  opts=(-qq -o APT::Sandbox::User=root)
  pkg=mesa-vulkan-drivers
fi
if [ -z "$(ls "$dir"/debs/mesa-vulkan-drivers_*.deb 2>/dev/null)" ]; then
  [ "$suite" = bookworm-backports ] && ! apt-get "${opts[@]}" update && {
    say "could not read the package lists of $suite; the WebGPU specs will be skipped"
    exit 0
  }
  (cd "$dir/debs" && apt-get "${opts[@]}" download "$pkg" libvulkan1) || {
    say "could not download mesa-vulkan-drivers from $suite; the WebGPU specs will be skipped"
    exit 0
  }
fi
version="$(dpkg-deb -f "$dir"/debs/mesa-vulkan-drivers_*.deb Version)"
if [ "${version%%.*}" -lt 23 ] 2>/dev/null; then
  say "mesa-vulkan-drivers $version is older than 23; Dawn rejects it"
  exit 0
fi
rm -rf "$dir/root"
for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir/root"; done
lib="$dir/root/usr/lib/$multiarch/libvulkan_lvp.so"
src="$(ls "$dir"/root/usr/share/vulkan/icd.d/lvp_icd*.json | head -1)"
sed "s#\"library_path\": *\"[^\"]*\"#\"library_path\": \"$lib\"#" "$src" >"$dir/lvp_icd.json"
if ldd "$lib" 2>/dev/null | grep -q 'not found'; then
  # The driver needs system libraries (LLVM, libdrm, xcb...) this image lacks: Debian's own ones.
  deps="$(dpkg-deb -f "$dir"/debs/mesa-vulkan-drivers_*.deb Depends | tr ',' '\n' | sed 's/(.*//; s/|.*//' | xargs)"
  if [ "$(id -u)" = 0 ]; then
    apt-get -qq update && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $deps >/dev/null || true
  fi
  if ldd "$lib" | grep -q 'not found'; then
    say "libvulkan_lvp.so misses: $(ldd "$lib" | grep 'not found' | xargs); the WebGPU specs will be skipped"
    exit 0
  fi
fi
install_loader
write_env
echo "$version" >"$dir/.complete"
say "lavapipe from Mesa $version ready: source $dir/env.sh (or set VK_DRIVER_FILES=$dir/lvp_icd.json)"
