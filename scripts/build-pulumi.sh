#!/usr/bin/env bash
# Builds the pinned Pulumi CLI from its Go module into a cache outside the work tree, once per machine.
#
#   bash scripts/build-pulumi.sh          # build (or find) it and print the directory of its bin/
#   bash scripts/build-pulumi.sh --force  # build again even when the cache holds it
#   bash scripts/build-pulumi.sh --if-available  # exit 127 quietly when there is no build and no `go`
#
# The version is pinned in tools/pulumi-cli/go.mod (the one place to change it; see tools/pulumi-cli/README.md).
# The CLI is compiled once into ${XDG_CACHE_HOME:-$HOME/.cache}/apinizer-pulumi/pulumi-<version>/build/pulumi.
# The directory this prints, pulumi-<version>/bin-<hash>/, holds:
#   pulumi                         a hard link to that build (a copy where links are refused)
#   pulumi-language-python         the Python language host (tools/pulumi-cli/language_host.py)
#   pulumi-resource-pulumi-python  starts `python -u -m pulumi.dynamic`, the SDK's dynamic provider server
# The engine finds both plugins beside the `pulumi` binary it runs. <hash> is that of the launchers, so
# checkouts whose launchers differ each get their own folder and share the one compiled CLI. Progress
# goes to stderr; the last line on stdout is the folder. Needs `go` (1.25 or newer) and the module proxy.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/tools/pulumi-cli"
force=false
quiet_if_missing=false
for arg in "$@"; do
  case "$arg" in
    --force) force=true ;;
    --if-available) quiet_if_missing=true ;;
    -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown argument '$arg' (expected --force, --if-available or --help)" >&2; exit 2 ;;
  esac
done

VERSION="$(awk '$1 == "github.com/pulumi/pulumi/pkg/v3" { print $2 }' "$TOOLS/go.mod")"
if [ -z "$VERSION" ]; then
  echo "error: no github.com/pulumi/pulumi/pkg/v3 requirement in $TOOLS/go.mod" >&2
  exit 1
fi
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/apinizer-pulumi/pulumi-${VERSION#v}"
BUILT="$CACHE/build/pulumi"
LAUNCHERS_HASH="$(cat "$TOOLS/language_host.py" "${BASH_SOURCE[0]}" | sha256sum | cut -c1-12)"
BIN="$CACHE/bin-$LAUNCHERS_HASH"

# The launchers are a few lines each: (re)written on every run so a changed host reaches the cache at once.
install_launchers() {
  [ -x "$BIN/pulumi" ] && return 0
  local staging="$BIN.tmp.$$"
  rm -rf "$staging"
  mkdir -p "$staging"
  ln "$BUILT" "$staging/pulumi" 2>/dev/null || cp "$BUILT" "$staging/pulumi"
  write_launchers "$staging"
  # A rename, so that a concurrent run never sees a folder half written.
  mv -T "$staging" "$BIN" 2>/dev/null || rm -rf "$staging"
}

write_launchers() {
  local BIN="$1"
  cp "$TOOLS/language_host.py" "$BIN/language_host.py"
  cat >"$BIN/pulumi-language-python" <<EOF
#!/bin/sh
# Pulumi's engine starts this as the Python language host. The host needs the pulumi SDK and grpcio:
# the first python3 on PATH that has them (scripts put the project's .venv/bin first).
export APINIZER_PULUMI_HOST_VERSION="${VERSION#v}"
exec python3 -u "\$(dirname "\$0")/language_host.py" "\$@"
EOF
  cat >"$BIN/pulumi-resource-pulumi-python" <<'EOF'
#!/bin/sh
# Pulumi's engine starts this for the "pulumi-python" resource plugin, which serves every Python dynamic
# provider. The project's `virtualenv` runtime option reaches it as PULUMI_RUNTIME_VIRTUALENV, relative
# to the project's root (the folder of Pulumi.yaml), while the engine may start it in the program's
# folder (`main: infra/`): a relative path is looked up from here upwards to the first Pulumi.yaml.
venv="${PULUMI_RUNTIME_VIRTUALENV:-}"
if [ -z "$venv" ]; then
  exec python3 -u -m pulumi.dynamic "$@"
fi
venv="${venv%/}"
case "$venv" in
  /*) ;;
  *)
    dir="$PWD"
    while [ ! -f "$dir/Pulumi.yaml" ] && [ ! -f "$dir/Pulumi.yml" ] && [ "$dir" != "/" ]; do
      dir="$(dirname "$dir")"
    done
    [ -f "$dir/Pulumi.yaml" ] || [ -f "$dir/Pulumi.yml" ] || dir="$PWD"
    venv="$dir/$venv"
    ;;
esac
if [ ! -x "$venv/bin/python" ]; then
  echo "pulumi-resource-pulumi-python: the project's virtualenv $venv has no bin/python" >&2
  exit 1
fi
exec "$venv/bin/python" -u -m pulumi.dynamic "$@"
EOF
  chmod +x "$BIN/pulumi-language-python" "$BIN/pulumi-resource-pulumi-python"
}

if [ -x "$BUILT" ] && ! "$force"; then
  install_launchers
  echo "$BIN"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  # --if-available: the caller (scripts/_pulumi.sh, the e2e tests) says what to install instead.
  "$quiet_if_missing" || echo "error: building the Pulumi CLI needs Go (https://go.dev/dl/), which is not on PATH" >&2
  exit 127
fi

started=$(date +%s)
progress() { echo "==> [pulumi $VERSION, $(($(date +%s) - started)) s] $*" >&2; }
# A heartbeat while `go` is silent: the compile alone takes several minutes on two cores.
( while sleep 30; do progress "still building..."; done ) &
heartbeat=$!
trap 'kill "$heartbeat" 2>/dev/null || true' EXIT

cd "$TOOLS"
progress "downloading the Go modules of the Pulumi CLI $VERSION (cached in $(go env GOMODCACHE))"
# Only the modules the CLI's packages need: `go mod download` would also ask for test-only modules.
go list -deps github.com/pulumi/pulumi/pkg/v3/cmd/pulumi >/dev/null
progress "compiling github.com/pulumi/pulumi/pkg/v3/cmd/pulumi into $BUILT (Go build cache: $(go env GOCACHE))"
mkdir -p "$CACHE/build"
go build -trimpath -o "$BUILT.tmp" \
  -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$VERSION" \
  github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
mv "$BUILT.tmp" "$BUILT"
rm -rf "$BIN"
install_launchers
progress "done: $("$BIN/pulumi" version) in $BIN ($(du -sh "$BIN" | cut -f1))"
echo "$BIN"
