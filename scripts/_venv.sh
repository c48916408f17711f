# Sourced by the other scripts: makes .venv with Python 3.11+ and installs the project into it.
# The install is redone only when pyproject.toml changed since the last one.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  for candidate in python3.11 python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      PY="$candidate"; break
    fi
  done
fi
if [ -z "$PY" ]; then
  echo "error: Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)" >&2
  exit 1
fi
if [ ! -x "$VENV/bin/python" ]; then
  echo "==> creating $VENV with $PY"
  "$PY" -m venv "$VENV"
fi
STAMP="$VENV/.apinizer-installed"
WANT="$(sha256sum < "$ROOT/pyproject.toml" | cut -d' ' -f1)"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$WANT" ]; then
  echo "==> installing apinizer-pulumi[dev] into $VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT[dev]"
  echo "$WANT" > "$STAMP"
fi
# The project's own bytecode, written here because an editable install leaves it to the interpreter,
# which writes none where PYTHONDONTWRITEBYTECODE is set (as on these machines): every Pulumi
# command's program and provider processes would compile the package again, about 0.13 s of each
# provider's start (docs/performance.md). Incremental: only changed files are compiled again.
"$VENV/bin/python" -m compileall -q -j 0 "$ROOT/provider" "$ROOT/emulator" >/dev/null
export PATH="$VENV/bin:$PATH"
