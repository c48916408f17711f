"""The files a program names and the provider reads: an API proxy's spec, the MMDB file, a certificate, a
keystore's or a crypto key's files. One reader, so that one wording names a file that cannot be read or
is empty, whichever kind reads it; a file that changed since it was hashed is refused by
``_errors.refuse_if_changed``, also one wording.
"""

from __future__ import annotations

import os
from pathlib import Path


def unreadable(where: str, path: str | os.PathLike[str], reason: str) -> str:
    """``<where> '<path>' cannot be read: <reason>``, and for a relative path the folder it was read from
    (the working directory: the program's folder under ``pulumi``), which the user may not have in mind."""
    hint = "" if Path(path).is_absolute() else f" (relative paths are read from {Path.cwd()})"
    return f"{where} {str(path)!r} cannot be read: {reason}{hint}"


def read_file(path: str | os.PathLike[str], where: str, *, error: type[ValueError] = ValueError) -> bytes:
    """The bytes of the file at ``path``; ``error`` (a ``ValueError``) naming ``where`` and the file
    when it cannot be read or is empty.

    :param where: The input that names the file in messages (``spec_file``, ``environments[0].file``).
    :param error: What to raise: ``_args.InputValueError`` where the program reads the file (one line
        under ``pulumi up``), a plain ``ValueError`` where a check reports it as a failure.
    """
    try:
        content = Path(path).read_bytes()
    except OSError as problem:
        raise error(unreadable(where, path, problem.strerror or type(problem).__name__)) from None
    if not content:
        raise error(f"{where} {str(path)!r} is empty")
    return content
