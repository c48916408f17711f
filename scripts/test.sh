#!/usr/bin/env bash
# The whole test suite on a fresh machine: venv, install, lint, type-check, pytest.
# Extra arguments go to pytest (for example: scripts/test.sh tests/unit -x).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
cd "$ROOT"
echo "==> ruff"
ruff check provider emulator tests benchmarks examples infra
echo "==> mypy (strict) on provider/ and emulator/"
mypy
echo "==> pytest"
set +e
python -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "error: pytest collected no tests; that is a failure here, not a pass" >&2
  exit 1
fi
exit "$status"
