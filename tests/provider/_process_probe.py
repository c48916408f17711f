"""A provider whose create answers what its provider server process is: how that process was started.

Pickled by reference, so the provider server imports this module (the test puts ``tests/`` on its
``PYTHONPATH``, where pytest imports it from).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import pulumi.dynamic as dyn
from pulumi.runtime.proto import provider_pb2_grpc

from apinizer_pulumi.resources import _reads, _server


class ProcessProbe(dyn.ResourceProvider):
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        main = sys.modules["__main__"]
        return dyn.CreateResult("probe", {
            "pid": os.getpid(),
            "main": getattr(main.__spec__, "name", None),
            "argv": sys.argv,
            "cwd": os.getcwd(),
            "path0": sys.path[0],
            "environment": {name: value for name, value in os.environ.items()
                            if name.startswith("APINIZER_")},
            "test": os.environ.get("PYTEST_CURRENT_TEST"),
            # settings read when the resources are imported
            "read_cache_ttl": _reads.TTL,
            "provider_threads": _server.WORKERS,
            # installed by the import guard's .pth as the process starts, unless switched off
            "import_guard": getattr(provider_pb2_grpc.add_ResourceProviderServicer_to_server,
                                    "_apinizer_guard", False),
        })
