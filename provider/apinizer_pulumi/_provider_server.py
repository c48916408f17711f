"""Whether this process is the SDK's dynamic provider server, which the Pulumi CLI starts for our resources.

Apart from the modules that ask it (``_heap``, ``resources._errors``, ``resources._import_guard``,
``resources._server``) because it imports nothing: ``_heap`` runs at the models' import, below the
resources, and must not import the Pulumi SDK.
"""

from __future__ import annotations

import sys

#: The module name of the SDK's dynamic provider server when it runs as ``python -m pulumi.dynamic``.
PROVIDER_SERVER = "pulumi.dynamic.__main__"


def in_provider_server() -> bool:
    """Whether ``__main__`` is the SDK's provider server (not a program, a test or a script)."""
    main = sys.modules.get("__main__")
    return getattr(getattr(main, "__spec__", None), "name", None) == PROVIDER_SERVER
