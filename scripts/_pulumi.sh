# Sourced by the other scripts: finds the Pulumi CLI, puts it on PATH and sets the engine to work offline.
#
# Resolution order:
#   1. a `pulumi` already on PATH (or in ~/.pulumi/bin, where Pulumi's installers put it);
#   2. this project's cached build, ${XDG_CACHE_HOME:-$HOME/.cache}/apinizer-pulumi/pulumi-<version>/;
#   3. a build of the pinned version with `go` (scripts/build-pulumi.sh), when `go` is on PATH;
#   4. otherwise an install message, and exit 127.
# Sets PULUMI_CLI (the path of `pulumi`). Offline engine settings: no update check, no automatic plugin
# download; the backend and the secrets passphrase are the calling script's to choose.

_apinizer_pulumi_install_message() {
  cat >&2 <<'EOF'
error: the Pulumi CLI (`pulumi`) is not installed or not on PATH, and there is no Go toolchain to build it;
nothing was started.

Either install Pulumi, open a new shell (or add ~/.pulumi/bin to PATH), and run the command again:
  Linux/macOS:  curl -fsSL https://get.pulumi.com | sh
  macOS:        brew install pulumi/tap/pulumi
  Windows:      winget install pulumi
  other ways:   https://www.pulumi.com/docs/install/
or install Go (https://go.dev/dl/): the scripts then build the pinned CLI once into ~/.cache/apinizer-pulumi/.
No Pulumi account is needed: the scripts keep the state in a local folder.
EOF
}

apinizer_find_pulumi() {
  local root bin status
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  if ! command -v pulumi >/dev/null 2>&1 && [ -x "$HOME/.pulumi/bin/pulumi" ]; then
    PATH="$HOME/.pulumi/bin:$PATH"
  fi
  if ! command -v pulumi >/dev/null 2>&1; then
    # The cached build, or a build with go; 127 when there is neither.
    status=0
    bin="$(bash "$root/scripts/build-pulumi.sh" --if-available)" || status=$?
    if [ "$status" -eq 127 ]; then
      _apinizer_pulumi_install_message
      return 127
    elif [ "$status" -ne 0 ]; then
      return "$status"
    fi
    PATH="$bin:$PATH"
  fi
  PULUMI_CLI="$(command -v pulumi)"
  export PATH PULUMI_CLI
  export PULUMI_SKIP_UPDATE_CHECK=true
  export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
}
