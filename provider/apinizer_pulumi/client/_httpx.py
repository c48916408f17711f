"""httpx without its command line.

``import httpx`` runs ``from ._main import main``, and ``httpx._main`` imports click, pygments and
rich whenever they are installed (tens of milliseconds per process), though no client ever runs
httpx's CLI. Importing this module first imports httpx with ``httpx._main`` stood in for by a
module whose ``main`` loads the real one on its first call, so ``httpx.main`` keeps working.
Once httpx is imported, the stand-in leaves ``sys.modules``: an explicit ``import httpx._main``
still gets the real module.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any


def _main(*args: Any, **kwargs: Any) -> Any:
    try:
        real = importlib.import_module("httpx._main")
    except ImportError:  # what httpx itself says when its CLI's dependencies are missing
        print("The httpx command line client could not run because the required dependencies "
              "were not installed.\nMake sure you've installed everything with: pip install 'httpx[cli]'")
        sys.exit(1)
    return real.main(*args, **kwargs)


def import_httpx_without_cli() -> None:
    if "httpx" in sys.modules:
        return
    stand_in = types.ModuleType("httpx._main", "Stand-in for httpx's CLI; see apinizer_pulumi.client._httpx")
    stand_in.main = _main  # type: ignore[attr-defined]
    sys.modules["httpx._main"] = stand_in
    try:
        importlib.import_module("httpx")
    finally:
        if sys.modules.get("httpx._main") is stand_in:
            del sys.modules["httpx._main"]


import_httpx_without_cli()
