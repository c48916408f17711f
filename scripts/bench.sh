#!/usr/bin/env bash
# Every benchmark of docs/performance.md, side by side with its baseline, in one run (about 15 minutes;
# --quick: about 2; --large adds the engine's floor at 5,000 resources, about 15 more).
# Extra arguments go to benchmarks/run_all.py (for example: scripts/bench.sh --quick).
# The load tool is wrk from Debian's packages, installed here when missing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
cd "$ROOT"
if ! command -v wrk >/dev/null 2>&1; then
  echo "==> installing wrk (Debian package)"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get install -y wrk >/dev/null 2>&1 || { $SUDO apt-get update >/dev/null && $SUDO apt-get install -y wrk >/dev/null; }
fi
# The CLI rows run the real `pulumi`, found (or built once, with go) as the other scripts find it;
# without one they are left out and the rest still runs.
source "$ROOT/scripts/_pulumi.sh"
apinizer_find_pulumi || echo "==> no Pulumi CLI: the rows measured under the CLI are left out"
# Bounded: every load is on 127.0.0.1, limited in time and count; the whole run is cut at 30 minutes
# (90 with --large, which adds the engine's floor at 5,000 resources).
limit=1800
for arg in "$@"; do [ "$arg" = "--large" ] && limit=5400; done
exec timeout "$limit" python benchmarks/run_all.py "$@"
