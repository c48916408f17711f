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
echo "==> import-linter: the layers' contracts in pyproject.toml"
lint-imports --no-cache
# The e2e tests run the real Pulumi CLI. Where `pulumi` or `go` exists they must run, not skip: find or
# build the CLI now (a cold build takes minutes and prints progress) and tell the tests to fail, rather
# than skip, if it is missing. A run of other test folders leaves it to the e2e fixture to build on demand.
if { [ "$#" -eq 0 ] || [[ "$*" == *e2e* ]]; } && { command -v pulumi >/dev/null 2>&1 || command -v go >/dev/null 2>&1; }; then
  echo "==> Pulumi CLI"
  # shellcheck source=scripts/_pulumi.sh
  source "$ROOT/scripts/_pulumi.sh"
  apinizer_find_pulumi
  echo "$("$PULUMI_CLI" version) at $PULUMI_CLI"
  export APINIZER_REQUIRE_E2E=1
fi
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
