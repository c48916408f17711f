"""WS-Addressing settings of a SOAP endpoint."""

from __future__ import annotations

import re
from typing import Any, Self
from urllib.parse import urlsplit

from pydantic import model_validator

from ._base import ApiModel, field_errors
from ._endpoint import EndpointTarget
from ._enums import WsaMustUnderstand, WsaVersion

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
_FORBIDDEN = re.compile(r"[\s<>\"{}|\\^`\x00-\x1f\x7f]")
_NETWORK_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp", "soap.tcp", "net.tcp"})


def is_absolute_uri(value: str) -> bool:
    """True for an absolute URI in the sense of RFC 3986: a scheme, then a non-empty rest.

    Network schemes (http, https, ...) must also name a host; ``urn:uuid:...`` and other
    non-hierarchical URIs count.
    """
    if not _SCHEME.match(value) or _FORBIDDEN.search(value):
        return False
    scheme, _, rest = value.partition(":")
    if not rest:
        return False
    if scheme.lower() in _NETWORK_SCHEMES:
        try:
            return bool(urlsplit(value).hostname)
        except ValueError:
            return False
    return True


_URI_FIELDS = ("wsa_action", "wsa_to", "wsa_reply_to", "wsa_message_id", "wsa_from", "wsa_fault_to")


class WsaSettings(ApiModel):
    """WS-Addressing headers for a SOAP endpoint. Every field is optional; all off by default.

    The spec's guidance (a custom action when ``wsa_add_default_action`` is false, and so on)
    is advice for enabled settings, not a rule the API enforces, so it is not enforced here.
    """

    wsa_enabled: bool = False
    wsa_must_understand: WsaMustUnderstand = WsaMustUnderstand.NONE
    wsa_version: WsaVersion = WsaVersion.V200508
    wsa_add_default_action: bool = False
    wsa_action: str | None = None
    wsa_add_default_to: bool = False
    wsa_to: str | None = None
    wsa_reply_to: str | None = None
    wsa_generate_message_id: bool = False
    wsa_message_id: str | None = None
    wsa_from: str | None = None
    wsa_fault_to: str | None = None
    wsa_relates_to: str | None = None
    wsa_relation_ship_type: str | None = None

    @model_validator(mode="after")
    def _addresses_are_uris(self) -> Self:
        problems: list[tuple[str, str, Any]] = []
        for field in _URI_FIELDS:
            value = getattr(self, field)
            if value is not None and not is_absolute_uri(value):
                problems.append((field, f"{field} must be a valid absolute URI, got {value!r}", value))
        if problems:
            raise field_errors("WsaSettings", problems)
        return self

    def to_api(self) -> dict[str, Any]:
        """The API's JSON. Nullable fields are sent as ``null`` so a write clears them."""
        return self.model_dump(mode="json", by_alias=True)


class EndpointWsaUpdate(EndpointTarget):
    """The body of the WS-Addressing operation: the target plus ``wsaSettings``."""

    wsa_settings: WsaSettings

    def to_api(self) -> dict[str, Any]:
        body = super().to_api()
        body["wsaSettings"] = self.wsa_settings.to_api()
        return body
