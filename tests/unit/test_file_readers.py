"""The files a program names and the provider reads (a spec, the MMDB file, a certificate, a keystore's
and a crypto key's files): each kind's own reading path gives one wording for a file that cannot be read,
one for an empty file, and one for a file that changed after it was hashed (``resources/_files.py``,
``_errors.refuse_if_changed``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from apinizer_pulumi.resources import ApinizerResourceError, CryptoKeyProvider, KeystoreProvider


def _spec(path: str) -> object:
    from apinizer_pulumi.resources.api_proxy import read_spec

    return read_spec(path)


def _mmdb(path: str) -> object:
    from apinizer_pulumi.resources.geolocation import read_mmdb

    return read_mmdb(path)


def _certificate(path: str) -> object:
    from pydantic import ValidationError

    from apinizer_pulumi.resources._certificate_inputs import CertificateInputs

    try:
        return CertificateInputs.model_validate({"project_name": "Demo", "name": "ca", "alias": "ca",
                                                 "environment_names": ["test"], "file": path})
    except ValidationError as error:
        [problem] = error.errors()
        raise ValueError(str(problem["ctx"]["error"])) from None


def _failures_as_error(failures: list[tuple[str, str]]) -> None:
    if failures:
        [(_, reason)] = failures
        raise ValueError(reason)


def _keystore(path: str) -> object:
    entry = {"environment_name": "test", "type": "PKCS12", "file": path}
    _failures_as_error(KeystoreProvider().digest_sources(entry, "environments[0]"))
    return entry


def _crypto_key(path: str) -> object:
    entry = {"environment_name": "test", "private_key_file": path}
    _failures_as_error(CryptoKeyProvider().digest_sources(entry, "environments[0]"))
    return entry


#: Each kind's reading path, and the input that names the file in its messages.
READERS: dict[str, tuple[Callable[[str], object], str]] = {
    "spec": (_spec, "spec_file"),
    "mmdb": (_mmdb, "mmdb_file"),
    "certificate": (_certificate, "file"),
    "keystore": (_keystore, "environments[0].file"),
    "crypto key": (_crypto_key, "environments[0].private_key_file"),
}


@pytest.mark.parametrize("kind", READERS)
def test_a_missing_file_is_named_with_the_folder_a_relative_path_is_read_from(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read, where = READERS[kind]
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as relative:
        read("missing.bin")
    assert str(relative.value) == (f"{where} 'missing.bin' cannot be read: No such file or directory "
                                   f"(relative paths are read from {tmp_path})")
    absolute = tmp_path / "missing.bin"
    with pytest.raises(ValueError) as named:
        read(str(absolute))
    assert str(named.value) == f"{where} '{absolute}' cannot be read: No such file or directory"


@pytest.mark.parametrize("kind", READERS)
def test_an_empty_file_is_named(kind: str, tmp_path: Path) -> None:
    read, where = READERS[kind]
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    with pytest.raises(ValueError) as error:
        read(str(empty))
    assert str(error.value) == f"{where} '{empty}' is empty"


def test_a_key_file_changed_after_the_preview_hashed_it_is_refused_in_the_wording_of_the_others(
    tmp_path: Path,
) -> None:
    from apinizer_pulumi.resources._key_material import checked_file, digest

    key = tmp_path / "key.pem"
    key.write_bytes(b"before")
    hashed = digest(key.read_bytes())
    assert checked_file(str(key), hashed, "environments[0].private_key_file") == b"before"
    key.write_bytes(b"after")
    with pytest.raises(ApinizerResourceError) as error:
        checked_file(str(key), hashed, "environments[0].private_key_file")
    assert str(error.value) == (
        f"environments[0].private_key_file '{key}' changed after the preview read it (its sha256 is no "
        f"longer {hashed}); nothing was sent: run `pulumi up` again")
