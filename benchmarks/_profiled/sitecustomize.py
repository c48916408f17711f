"""Put on PYTHONPATH by ``provider_profile.py`` only: the provider process samples itself with py-spy.

When ``APINIZER_PROFILE_DIR`` is set and this interpreter is the SDK's dynamic provider server
(``python -m pulumi.dynamic``), it starts ``py-spy record`` on its own pid, which writes collapsed
stacks (every thread, CPU only) to that folder when the process exits. Nothing else is touched: the
shipped provider has no profiling hook.
"""

from __future__ import annotations

import os
import subprocess
import sys

_folder = os.environ.get("APINIZER_PROFILE_DIR")
if _folder and "pulumi.dynamic" in getattr(sys, "orig_argv", ()):
    subprocess.Popen(
        [os.environ.get("APINIZER_PROFILE_PY_SPY", "py-spy"), "record", "--pid", str(os.getpid()), "--gil",
         "--rate", os.environ.get("APINIZER_PROFILE_RATE", "250"), "--format", "raw",
         "--output", os.path.join(_folder, f"provider-{os.getpid()}.txt"), "--nonblocking"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
