#!/usr/bin/env bash
# Stops the emulator that `bash scripts/up.sh` started.
#
#   bash scripts/down.sh             # stop the emulator; its database and the dev stack's state stay in .apinizer/
#   bash scripts/down.sh --destroy   # first `pulumi destroy` the dev stack, then stop the emulator
#
# The database survives a stop, so the next `scripts/up.sh` finds everything as it was and reports no
# changes. To start from the emulator's default fixture again: `bash scripts/down.sh --destroy`, or stop
# it and delete the .apinizer/ folder (which also forgets the dev stack's state). Honours the same
# APINIZER_STATE_DIR, PULUMI_BACKEND_URL and PULUMI_CONFIG_PASSPHRASE(_FILE) as scripts/up.sh.
set -euo pipefail

destroy=false
for arg in "$@"; do
  case "$arg" in
    --destroy) destroy=true ;;
    -h|--help)
      sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "error: unknown argument '$arg' (expected --destroy or --help)" >&2
      exit 2
      ;;
  esac
done

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/_emulator.sh
source "$ROOT/scripts/_emulator.sh"
# From the root, as up.sh: a relative APINIZER_STATE_DIR names the same folder, and the same --db argument.
cd "$ROOT"
STATE_DIR="${APINIZER_STATE_DIR:-$ROOT/.apinizer}"
PID_FILE="$STATE_DIR/emulator.pid"
DB_FILE="$STATE_DIR/emulator.db"
STACK=dev
DEV_PASSPHRASE=apinizer-local-dev-only

if "$destroy"; then
  # shellcheck source=scripts/_pulumi.sh
  source "$ROOT/scripts/_pulumi.sh"
  apinizer_find_pulumi || exit $?
  # shellcheck source=scripts/_venv.sh
  source "$ROOT/scripts/_venv.sh"
  export PULUMI_BACKEND_URL="${PULUMI_BACKEND_URL:-file://$STATE_DIR/state}"
  if [ -z "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]; then
    export PULUMI_CONFIG_PASSPHRASE="${PULUMI_CONFIG_PASSPHRASE:-$DEV_PASSPHRASE}"
  fi
  export PULUMI_SKIP_UPDATE_CHECK=true
  echo "==> pulumi destroy --stack $STACK"
  pulumi destroy --yes --stack "$STACK"
fi

if [ ! -f "$PID_FILE" ]; then
  echo "==> no emulator pid file ($PID_FILE): nothing to stop"
  exit 0
fi
pid="$(cat "$PID_FILE")"
if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
  echo "==> the emulator (pid ${pid:-?}) is not running"
  rm -f "$PID_FILE"
  exit 0
fi
# Pids get reused: only signal the process if it is still the emulator up.sh started on this database.
if ! apinizer_is_our_emulator "$pid" "$DB_FILE"; then
  echo "==> pid $pid is no longer the emulator; leaving it alone"
  rm -f "$PID_FILE"
  exit 0
fi

echo "==> stopping the emulator (pid $pid)"
kill -TERM "$pid"
for _ in $(seq 1 50); do
  if ! kill -0 "$pid" 2>/dev/null; then
    rm -f "$PID_FILE"
    echo "==> stopped"
    exit 0
  fi
  sleep 0.2
done
echo "error: the emulator (pid $pid) did not stop within 10 s after SIGTERM; it is still running" >&2
exit 1
