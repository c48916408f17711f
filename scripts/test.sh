#!/usr/bin/env bash
# The whole test suite on a fresh machine: venv, install, lint, type-check, pytest.
# Extra arguments go to pytest (for example: scripts/test.sh tests/unit -x).
# --fast (first argument): everything but the end-to-end tests under the Pulumi CLI, the loop to run
# before a commit; it fuzzes fewer cases than CI (TESTS_FAST_LOOP=1, tests/fuzz/_budget.py). pytest
# runs on APINIZER_TEST_WORKERS pytest-xdist workers (default 3, `0` for one process); arguments that
# choose workers themselves (-n, -p no:xdist) are left alone.
set -euo pipefail
suite_started=$SECONDS
fast=0
if [ "${1:-}" = "--fast" ]; then
  fast=1
  shift
fi
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
cd "$ROOT"
# ruff, mypy and lint-imports: in the fast loop they run beside pytest, not before it (mypy alone is 6 to
# 8 s of one core, and pytest's start leaves the other core idle); in the whole suite, where a cold mypy
# takes a minute of a core beside the e2e modules' CLI processes and two clean-clone runs showed no gain
# either way, they run first (docs/performance.md, "The test suite"). Their output is shown after
# pytest's either way, and any of them failing fails the script.
checks_dir="$(mktemp -d)"
run_check() {
  # run_check NAME HEADING COMMAND...: the command's output, under its heading, in NAME.out; its exit
  # code in NAME.code.
  local name=$1 heading=$2 code=0
  shift 2
  { echo "==> $heading"; "$@"; } >"$checks_dir/$name.out" 2>&1 || code=$?
  echo "$code" >"$checks_dir/$name.code"
}
run_checks() {
  run_check ruff "ruff" ruff check provider emulator tests benchmarks examples infra
  run_check mypy "mypy (strict) on provider/ and emulator/" mypy
  run_check lint-imports "import-linter: the layers' contracts in pyproject.toml" lint-imports --no-cache
}
checks_pid=""
if [ "$fast" -eq 1 ]; then
  run_checks &
  checks_pid=$!
else
  run_checks
fi
# On any way out (a failed CLI build included), the checks end before their folder goes.
trap 'if [ -n "$checks_pid" ]; then wait "$checks_pid" 2>/dev/null; fi; rm -rf "$checks_dir"' EXIT
show_checks() {
  # After pytest: waits for the checks, shows each one's output, and fails the script for any that failed.
  local name code
  if [ -n "$checks_pid" ]; then
    wait "$checks_pid" || true
  fi
  for name in ruff mypy lint-imports; do
    cat "$checks_dir/$name.out"
    code="$(cat "$checks_dir/$name.code" 2>/dev/null || echo 1)"
    if [ "$code" -ne 0 ]; then
      echo "error: $name failed (exit code $code)" >&2
      if [ "$status" -eq 0 ]; then
        status=$code
      fi
    fi
  done
}
# The e2e tests run the real Pulumi CLI. Where `pulumi` or `go` exists they must run, not skip: find or
# build the CLI now (a cold build takes minutes and prints progress) and tell the tests to fail, rather
# than skip, if it is missing. A run of other test folders leaves it to the e2e fixture to build on demand.
if [ "$fast" -eq 0 ] && { [ "$#" -eq 0 ] || [[ "$*" == *e2e* ]]; } && { command -v pulumi >/dev/null 2>&1 || command -v go >/dev/null 2>&1; }; then
  echo "==> Pulumi CLI"
  # shellcheck source=scripts/_pulumi.sh
  source "$ROOT/scripts/_pulumi.sh"
  apinizer_find_pulumi
  echo "$("$PULUMI_CLI" version) at $PULUMI_CLI"
  export APINIZER_REQUIRE_E2E=1
fi
workers=()
if [[ " $* " != *" -n"* && " $* " != *"--numprocesses"* && "$*" != *"no:xdist"* ]]; then
  # The e2e tests spend much of their time waiting on the CLI's processes, so a third worker on two
  # cores keeps the cores busy (docs/performance.md, "The test suite"). loadfile sends a module's
  # tests to one worker; without the reordering by module size, the longest modules, the e2e ones,
  # go first, as tests/conftest.py sorts them. (loadgroup would let e2e tests of one module run on
  # different workers, but pytest-xdist 3.8 cannot group under pytest 9: it renames a field pytest 9
  # no longer reads.)
  workers=(-n "${APINIZER_TEST_WORKERS:-3}" --dist loadfile --no-loadscope-reorder)
fi
if [ "$fast" -eq 1 ]; then
  set -- --ignore=tests/e2e "$@"
  export TESTS_FAST_LOOP=1
else
  unset TESTS_FAST_LOOP  # CI's number of fuzzing cases, whatever the shell had
fi
pytest_started=$SECONDS
status=0
run_pytest() {
  # One pytest run; its exit code 5 ("no tests collected") is a failure here, never a pass.
  local code=0
  echo "==> pytest $*"
  python -m pytest "$@" || code=$?
  if [ "$code" -eq 5 ]; then
    echo "error: pytest collected no tests; that is a failure here, not a pass" >&2
    code=1
  fi
  if [ "$code" -ne 0 ] && [ "$status" -eq 0 ]; then
    status=$code
  fi
}
set +e
# One run, the e2e tests included: tests/conftest.py sends their modules to the workers first, so the
# many short modules after them even out the workers' ends (docs/performance.md, "The test suite").
run_pytest "${workers[@]}" "$@"
show_checks
set -e
echo "==> time: pytest $(( (SECONDS - pytest_started) / 60 ))m$(printf '%02d' $(( (SECONDS - pytest_started) % 60 )))s," \
  "whole script $(( (SECONDS - suite_started) / 60 ))m$(printf '%02d' $(( (SECONDS - suite_started) % 60 )))s"
exit "$status"
