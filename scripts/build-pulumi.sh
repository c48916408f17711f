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
#   pulumi-language-python         the Python language host (tools/pulumi-cli/language_host.py), run by
#                                  host-python/bin/python: its own environment with the pulumi SDK and
#                                  grpcio, made by make-host-python after a build or on first use
#   pulumi-resource-pulumi-python  starts `python -u -m pulumi.dynamic`, the SDK's dynamic provider server
# The engine finds both plugins beside the `pulumi` binary it runs. <hash> is that of the launchers, so
# checkouts whose launchers differ each get their own folder and share the one compiled CLI. Progress
# goes to stderr; the last line on stdout is the folder. Needs `go` (1.25 or newer) and the module proxy,
# and Python 3.9+ with PyPI for the host's environment. Put the folder on PATH to use this CLI anywhere.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/tools/pulumi-cli"
force=false
quiet_if_missing=false
for arg in "$@"; do
  case "$arg" in
    --force) force=true ;;
    --if-available) quiet_if_missing=true ;;
    -h|--help) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
  {
    echo '#!/bin/sh'
    echo "sdk_version='${VERSION#v}'"
    cat <<'EOF'
# Makes host-python/ beside this file: the language host's own Python environment, with the pulumi SDK of
# the CLI's release (whose gRPC stubs the host speaks) and grpcio from PyPI. The host then runs whatever
# python3 comes first on the user's PATH. pulumi-language-python runs this when host-python/ is missing,
# and scripts/build-pulumi.sh right after it compiles the CLI. Runs at once are safe: each fills a folder of
# its own and renames it into place; the first rename wins and the others discard theirs.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
target="$here/host-python"
[ -x "$target/bin/python" ] && exit 0
if [ -e "$target" ]; then
  # Left broken (its base Python was removed, say): set aside, then made again.
  mv "$target" "$target.broken.$$" 2>/dev/null && rm -rf "$target.broken.$$"
fi
python=""
for candidate in python3 python3.13 python3.12 python3.11 python3.10 python3.9; do
  if command -v "$candidate" >/dev/null 2>&1 &&
     "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)' 2>/dev/null; then
    python="$candidate"; break
  fi
done
if [ -z "$python" ]; then
  echo "error: the Python language host needs Python 3.9 or newer on PATH (python3) to make $target" >&2
  exit 1
fi
staging="$target.tmp.$$"
trap 'rm -rf "$staging"' EXIT
echo "==> making the Python language host's own environment (pulumi==$sdk_version, grpcio) in $target" >&2
"$python" -m venv "$staging"
if ! "$staging/bin/python" -m pip install --quiet --disable-pip-version-check "pulumi==$sdk_version" >&2; then
  echo "error: could not install pulumi==$sdk_version from PyPI into $staging; nothing was changed" >&2
  exit 1
fi
# The environment runs only as bin/python, which finds its packages from its own place: it may move.
mv -T "$staging" "$target" 2>/dev/null || true
[ -x "$target/bin/python" ]
EOF
  } >"$BIN/make-host-python"
  cat >"$BIN/pulumi-language-python" <<EOF
#!/bin/sh
# Pulumi's engine starts this as the Python language host. The host runs on its own Python environment,
# host-python/ beside this file (made on first use by make-host-python), never on the python3 that comes
# first on PATH: it needs the pulumi SDK and grpcio, which the user's Python may lack. It runs the
# program itself with the project's virtualenv, or the python3 on PATH, as Pulumi's own host does.
export APINIZER_PULUMI_HOST_VERSION="${VERSION#v}"
EOF
  cat >>"$BIN/pulumi-language-python" <<'EOF'
here="$(cd "$(dirname "$0")" && pwd)"
if [ ! -x "$here/host-python/bin/python" ]; then
  "$here/make-host-python" >&2 || exit 1
fi
# -E: a PYTHONPATH or PYTHONHOME of the user's must not change the host's own packages.
exec "$here/host-python/bin/python" -E -u "$here/language_host.py" "$@"
EOF
  cat >"$BIN/pulumi-resource-pulumi-python" <<'EOF'
#!/bin/sh
# Pulumi's engine starts this for the "pulumi-python" resource plugin, which serves every Python dynamic
# provider, as Pulumi's own launcher does: the project's `virtualenv` runtime option reaches it as
# PULUMI_RUNTIME_VIRTUALENV, relative to the project's root (the folder of Pulumi.yaml); with none, it runs
# $PULUMI_PYTHON_CMD or the python3 on PATH. The engine may start it in the program's folder (`main:
# infra/`), so a relative path is looked up from here upwards to the first Pulumi.yaml.
venv="${PULUMI_RUNTIME_VIRTUALENV:-}"
if [ -z "$venv" ]; then
  exec "${PULUMI_PYTHON_CMD:-python3}" -u -m pulumi.dynamic "$@"
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
  echo "The 'virtualenv' option in Pulumi.yaml is set to \"$venv\", but it is not a virtual environment;" \
    "run \`pulumi install\` to create it and install the program's requirements into it." >&2
  exit 1
fi
PATH="$venv/bin:$PATH"
export PATH
unset PYTHONHOME
exec "$venv/bin/python" -u -m pulumi.dynamic "$@"
EOF
  chmod +x "$BIN/pulumi-language-python" "$BIN/pulumi-resource-pulumi-python" "$BIN/make-host-python"
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
# The language host's own Python now, so the first `pulumi` command does not wait for it.
"$BIN/make-host-python"
progress "done: $("$BIN/pulumi" version) in $BIN ($(du -sh "$BIN" | cut -f1))"
echo "$BIN"
