#!/usr/bin/env bash
# The main command: a local gateway (the emulator) and `pulumi up` of the root project's dev stack on it.
#
#   bash scripts/up.sh
#
# 1. finds the Pulumi CLI (scripts/_pulumi.sh: on PATH, else this project's cached build, else a build of
#    the pinned version with `go`; with neither, it stops at once and says how to install it);
# 2. makes .venv and installs the project into it (scripts/_venv.sh);
# 3. starts the emulator in the background on 127.0.0.1:$APINIZER_EMULATOR_PORT (18080) with its
#    database, log and pid file under .apinizer/ (git-ignored), unless it is already running;
# 4. points Pulumi at a local file backend in .apinizer/state and selects (or creates) the `dev` stack,
#    whose secrets use a dev-only passphrase;
# 5. runs `pulumi up --yes` on `dev` and prints the stack outputs.
#
# Run it again: nothing new is started and `pulumi up` reports every resource unchanged.
# `bash scripts/down.sh` stops the emulator (`--destroy` first removes what the stack made).
#
# Environment: APINIZER_EMULATOR_PORT (default 18080), APINIZER_STATE_DIR (default .apinizer: the emulator's
# database, log and pid file, and the Pulumi state), PULUMI_CONFIG_PASSPHRASE (default: the dev-only
# passphrase below) or PULUMI_CONFIG_PASSPHRASE_FILE, PULUMI_BACKEND_URL (default: the file backend in
# $APINIZER_STATE_DIR/state).
set -euo pipefail

ORIGINAL_PATH="$PATH"
# shellcheck source=scripts/_pulumi.sh
source "$(dirname "${BASH_SOURCE[0]}")/_pulumi.sh"
# The CLI first: a machine without it stops here at once, before a venv is made or anything started.
apinizer_find_pulumi || exit $?

# shellcheck source=scripts/_venv.sh
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
# shellcheck source=scripts/_emulator.sh
source "$(dirname "${BASH_SOURCE[0]}")/_emulator.sh"
cd "$ROOT"

STATE_DIR="${APINIZER_STATE_DIR:-$ROOT/.apinizer}"
PORT="${APINIZER_EMULATOR_PORT:-18080}"
DEFAULT_PORT=18080
URL="http://127.0.0.1:$PORT"
PID_FILE="$STATE_DIR/emulator.pid"
LOG_FILE="$STATE_DIR/emulator.log"
DB_FILE="$STATE_DIR/emulator.db"
STACK=dev
DEV_PASSPHRASE=apinizer-local-dev-only
mkdir -p "$STATE_DIR/state"

healthy() {
  python - "$URL" <<'PY'
import sys
import urllib.request

try:
    with urllib.request.urlopen(sys.argv[1] + "/apiops/test/healthcheck", timeout=2) as response:
        sys.exit(0 if response.status == 200 else 1)
except OSError:
    sys.exit(1)
PY
}

running_pid() {
  # The pid file's process, if it is still the emulator this script started on this folder's database.
  local pid
  [ -f "$PID_FILE" ] || return 1
  pid="$(cat "$PID_FILE")"
  apinizer_is_our_emulator "$pid" "$DB_FILE" || return 1
  echo "$pid"
}

if pid="$(running_pid)"; then
  if ! healthy; then
    echo "error: the emulator started from this folder (pid $pid) does not answer at $URL;" \
      "stop it with 'bash scripts/down.sh' (it may be on another APINIZER_EMULATOR_PORT) and retry" >&2
    exit 1
  fi
  echo "==> emulator already running (pid $pid) at $URL"
elif healthy; then
  echo "==> a gateway already answers at $URL (not started by this script); using it"
else
  rm -f "$PID_FILE"
  echo "==> starting the emulator at $URL (database $DB_FILE, log $LOG_FILE)"
  # nohup and a detached stdin: the emulator outlives this script and the terminal it ran in.
  nohup apinizer-emulator serve --host 127.0.0.1 --port "$PORT" --db "$DB_FILE" \
    >>"$LOG_FILE" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PID_FILE"
  for _ in $(seq 1 150); do
    if healthy; then
      break
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PID_FILE"
      echo "error: the emulator exited while starting; the end of $LOG_FILE:" >&2
      tail -n 20 "$LOG_FILE" >&2
      exit 1
    fi
    sleep 0.2
  done
  if ! healthy; then
    echo "error: the emulator (pid $pid) does not answer at $URL; see $LOG_FILE" >&2
    exit 1
  fi
  echo "==> emulator ready (pid $pid)"
fi

# An environment variable, not `pulumi login`: the backend choice stays in this run and does not replace
# the login (for example Pulumi Cloud) that the user's other projects rely on.
export PULUMI_BACKEND_URL="${PULUMI_BACKEND_URL:-file://$STATE_DIR/state}"
if [ -z "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]; then
  # Dev only: it guards nothing but this machine's local dev stack. Never reuse it for a real gateway.
  export PULUMI_CONFIG_PASSPHRASE="${PULUMI_CONFIG_PASSPHRASE:-$DEV_PASSPHRASE}"
fi
export PULUMI_SKIP_UPDATE_CHECK=true
echo "==> Pulumi backend: $PULUMI_BACKEND_URL"

if ! pulumi stack select "$STACK" >/dev/null 2>&1; then
  echo "==> creating stack $STACK"
  pulumi stack init "$STACK" --secrets-provider passphrase
fi
if [ "$PORT" != "$DEFAULT_PORT" ]; then
  echo "==> APINIZER_EMULATOR_PORT=$PORT: setting apinizer:url to $URL in Pulumi.$STACK.yaml"
  pulumi config set apinizer:url "$URL" --stack "$STACK"
fi

echo "==> pulumi up --stack $STACK"
pulumi up --yes --stack "$STACK"

echo "==> stack outputs"
pulumi stack output --stack "$STACK"

if [ "${PULUMI_CONFIG_PASSPHRASE:-}" = "$DEV_PASSPHRASE" ]; then
  passphrase_hint="export PULUMI_CONFIG_PASSPHRASE='$DEV_PASSPHRASE'"
else
  passphrase_hint="# and the PULUMI_CONFIG_PASSPHRASE(_FILE) you gave this script"
fi
cli_dir="$(dirname "$PULUMI_CLI")"
case ":$ORIGINAL_PATH:" in
  *":$cli_dir:"*) path_hint="" ;;
  *) path_hint="  export PATH=\"$cli_dir:\$PATH\"   # the Pulumi CLI this script used (any shell, any project)"$'\n' ;;
esac
# The lines below work in a new shell with nothing activated: the built CLI's language host runs on its own
# Python, and the project's `virtualenv: .venv` runs the program (tests/e2e/test_cli_scripts.py).
cat <<EOF

The gateway emulator keeps running at $URL. To run Pulumi commands on this stack yourself:
${path_hint}  export PULUMI_BACKEND_URL='$PULUMI_BACKEND_URL'
  $passphrase_hint
  pulumi preview --stack $STACK
This script put .venv/bin on its own PATH only; for apinizer-emulator and the project's python in your shell:
  source $VENV/bin/activate
Stop the emulator with: bash scripts/down.sh   (add --destroy to remove the stack's resources first)
EOF
