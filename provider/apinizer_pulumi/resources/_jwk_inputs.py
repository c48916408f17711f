"""The inputs of a ``Jwk``, validated offline by ``check``: imported by the provider only.

Kept apart from ``jwk.py`` so that a program that declares JWKs never imports pydantic. The rules
of each source are the API models' (``JwkCreate``, ``JwkGenerate``): the inputs are turned into the
body the create or generate operation sends, that body is validated, and each failure is named by
the input it came from (``generate.rsa.key_size``, ``jwk_json``, ``algorithm``).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError, model_validator

from apinizer_pulumi.models import (
    EcCurve,
    JwkCreate,
    JwkGenerate,
    JwkKeyIdType,
    JwkType,
    JwkUseType,
    Name,
    OkpCurve,
    PositiveInt,
)
from apinizer_pulumi.models._base import SecretField, SecretModel, field_errors
from apinizer_pulumi.models._jwk import CreateAlgorithm, GenerateAlgorithm, JwkDateTime

#: The inputs that each name one source, in the order messages list them.
SOURCES = ("url", "jwk_json", "generate", "certificate_name", "key_name", "keystore_name")
#: How the failure of inputs that name no source begins.
NO_SOURCE = "give exactly one source"
#: The create body's field of each input that differs in name (the rest are the same).
_CREATE_FIELD = {
    "url_connect_timeout": "url_option_connect_timeout",
    "url_read_timeout": "url_option_read_timeout",
    "url_size_limit": "url_option_size_limit",
    "jwk_json": "jwk_str",
    "keystore_name": "key_store_name",
}
_INPUT_OF_CREATE_FIELD = {field: name for name, field in _CREATE_FIELD.items()}
#: The inputs that only a JWK made from a certificate, key or keystore alias takes.
OBJECT_FIELDS = ("environment_name", "use_type", "algorithm")
#: The generate parameters that the four parameter objects share, as the inputs name them.
_SHARED_PARAMETERS = {"use": "key_use_type", "algorithm": "algorithm", "key_id_type": "key_id_type",
                      "not_before_time": "not_before_time", "expiration_time": "expiration_time"}
_INPUT_OF_PARAMETER = {field: name for name, field in _SHARED_PARAMETERS.items()}


class JwkRsaInputs(SecretModel):
    """``generate.rsa``: the key size in bits (2048, 3072 or 4096)."""

    key_size: int


class JwkEcInputs(SecretModel):
    """``generate.ec``: the curve."""

    curve_type: EcCurve


class JwkOctInputs(SecretModel):
    """``generate.oct``: the key size in bits (128, 192 or 256) and the password-based algorithms'
    salt length and iteration count."""

    key_size: int
    password_salt_length: PositiveInt | None = None
    password_iteration_count: PositiveInt | None = None


class JwkOkpInputs(SecretModel):
    """``generate.okp``: the curve (``ED25519`` signs, ``X25519`` agrees keys)."""

    curve_type: OkpCurve


class JwkGenerateInputs(SecretModel):
    """``generate``: the key type, its parameter object, and what the four types share."""

    type: JwkType
    kid: str | None = None
    use: JwkUseType | None = None
    algorithm: GenerateAlgorithm | None = None
    key_id_type: JwkKeyIdType | None = None
    not_before_time: JwkDateTime = None
    expiration_time: JwkDateTime = None
    rsa: JwkRsaInputs | None = None
    ec: JwkEcInputs | None = None
    oct: JwkOctInputs | None = None
    okp: JwkOkpInputs | None = None

    def body(self, name: str, description: str | None) -> dict[str, Any]:
        """The generate operation's body (snake_case, as ``JwkGenerate`` takes it)."""
        shared = {field: getattr(self, name) for name, field in _SHARED_PARAMETERS.items()}
        body: dict[str, Any] = {"name": name, "description": description, "type": self.type, "kid": self.kid}
        for kind in ("rsa", "ec", "oct", "okp"):
            own = getattr(self, kind)
            if own is not None:
                # The shared parameters go into the object of the declared type only; another
                # type's object is sent as declared, and refused by the model as the API would.
                extra = shared if kind == self.type.value.lower() else {}
                body[kind] = {**own.model_dump(exclude_none=True), **extra}
        return body


def _generate_input_loc(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """The input path of a failure of the generate body: the shared parameters are the inputs'."""
    if len(loc) >= 2 and loc[0] in ("rsa", "ec", "oct", "okp") and loc[1] in _INPUT_OF_PARAMETER:
        return ("generate", _INPUT_OF_PARAMETER[loc[1]], *loc[2:])
    return ("generate", *loc)


class JwkInputs(SecretModel):
    """A JWK: its name and description, exactly one source, and whether to take it over."""

    project_name: Name
    name: Name
    description: str | None = None
    url: str | None = None
    url_connect_timeout: PositiveInt | None = None
    url_read_timeout: PositiveInt | None = None
    url_size_limit: PositiveInt | None = None
    kid: str | None = None
    jwk_json: str | None = SecretField(None)
    generate: JwkGenerateInputs | None = None
    certificate_name: Name | None = None
    key_name: Name | None = None
    use_private_key: bool | None = None
    keystore_name: Name | None = None
    alias_name: Name | None = None
    environment_name: Name | None = None
    use_type: JwkUseType | None = None
    algorithm: CreateAlgorithm | None = None
    adopt: bool = False

    def source(self) -> str:
        """The input that names the source (one of :data:`SOURCES`)."""
        return next(name for name in SOURCES if getattr(self, name) is not None)

    def source_type(self) -> str:
        """The ``sourceType`` the gateway records for this JWK."""
        return {
            "url": "URL", "jwk_json": "COPY_PASTE", "generate": "GENERATE", "certificate_name": "CERTIFICATE",
            "key_name": "PRIVATE_KEY" if self.use_private_key else "PUBLIC_KEY", "keystore_name": "KEYSTORE",
        }[self.source()]

    def create_body(self) -> dict[str, Any]:
        """The create operation's body (snake_case, as ``JwkCreate`` takes it); not for ``generate``."""
        body: dict[str, Any] = {"name": self.name, "description": self.description,
                                "source_type": self.source_type()}
        for name in ("url", "url_connect_timeout", "url_read_timeout", "url_size_limit", "kid", "jwk_json",
                     "certificate_name", "key_name", "keystore_name", "alias_name", *OBJECT_FIELDS):
            value = getattr(self, name)
            if value is not None:
                body[_CREATE_FIELD.get(name, name)] = value
        return body

    def request(self) -> tuple[str, dict[str, Any]]:
        """(``"generate"`` or ``"create"``, the body that operation sends)."""
        if self.generate is not None:
            return "generate", self.generate.body(self.name, self.description)
        return "create", self.create_body()

    @model_validator(mode="after")
    def _one_source_and_its_rules(self) -> JwkInputs:
        title = type(self).__name__
        given = [name for name in SOURCES if getattr(self, name) is not None]
        choices = ", ".join(SOURCES[:-1]) + f" or {SOURCES[-1]}"
        if not given:
            raise field_errors(title, [("", f"{NO_SOURCE}: {choices}", None)])
        if len(given) > 1:
            raise field_errors(title, [
                (name, f"conflicts with {given[0]}: give exactly one source ({choices})", None)
                for name in given[1:]])
        problems = self._misplaced(given[0])
        if problems:
            raise field_errors(title, problems)
        operation, body = self.request()
        try:
            (JwkGenerate if operation == "generate" else JwkCreate).model_validate(body)
        except ValidationError as error:
            raise field_errors(title, [
                (".".join(str(part) for part in self._input_loc(operation, tuple(item["loc"]))),
                 item["msg"], None)
                for item in error.errors()]) from None
        return self

    def _misplaced(self, source: str) -> list[tuple[str, str, Any]]:
        """The inputs given that this source does not take, and those it needs and lacks."""
        takes = {
            "url": ("url_connect_timeout", "url_read_timeout", "url_size_limit", "kid"),
            "jwk_json": ("kid",),
            "generate": (),
            "certificate_name": OBJECT_FIELDS,
            "key_name": (*OBJECT_FIELDS, "use_private_key"),
            "keystore_name": (*OBJECT_FIELDS, "alias_name"),
        }[source]
        optional = ("url_connect_timeout", "url_read_timeout", "url_size_limit", "kid", "use_private_key",
                    "alias_name", *OBJECT_FIELDS)
        problems: list[tuple[str, str, Any]] = [
            (name, f"is not taken with {source} (it goes with another source)", None)
            for name in optional if name not in takes and getattr(self, name) is not None]
        needed = [name for name in takes if name in (*OBJECT_FIELDS, "alias_name")]
        problems += [(name, f"is required with {source}", None)
                     for name in needed if getattr(self, name) is None]
        return problems

    @staticmethod
    def _input_loc(operation: str, loc: tuple[Any, ...]) -> tuple[Any, ...]:
        if operation == "generate":
            return ("name",) if loc[:1] == ("name",) else _generate_input_loc(loc)
        return (_INPUT_OF_CREATE_FIELD.get(str(loc[0]), loc[0]), *loc[1:]) if loc else loc
