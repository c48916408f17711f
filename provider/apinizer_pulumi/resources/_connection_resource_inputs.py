"""The pydantic model of a ``Connection`` resource's inputs (the gateway's connections to Kafka, SMTP,
LDAP and the rest), named lazily by its provider.

Not the ``connection`` input every resource takes (where the gateway is: ``_connection.py``).
Kept apart from ``connection.py`` so that declaring a connection in a Pulumi program imports neither
pydantic nor the models (docs/performance.md). The type's own ``settings`` are validated against
the type's model (``CONNECTION_TYPES``) by the provider's check, naming each field.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from apinizer_pulumi.models import ApiModel, Name


class ConnectionResourceInputs(ApiModel):
    """The inputs of a ``Connection`` resource, validated offline by ``check``."""

    project_name: Name
    name: Name
    #: The type string, e.g. ``kafka``: set from the settings class (or the dict's ``type``).
    connection_type: str = Field(min_length=1)
    description: str | None = None
    enabled: bool = True
    deploy_to_worker: bool = True
    #: The type's own fields, snake_case: checked against the type's model by the provider.
    settings: dict[str, Any] = Field(default_factory=dict)
    adopt: bool = False
