"""Endpoint-level cache settings, as the gateway's update-endpoint-cache operation takes them."""

from __future__ import annotations

from typing import Any, Self

from pydantic import Field, field_validator, model_validator

from ._base import ApiModel, Name, PositiveInt, field_errors
from ._endpoint import EndpointTarget
from ._enums import CacheHandlingAction, CacheKeyType, CacheStorageType
from ._variable import CacheKeyVariable, as_cache_key_variables


class CacheSettings(ApiModel):
    """Cache settings of one endpoint; they override the proxy-level settings for it.

    Defaults are the spec's: cache off, GET only, key from query parameters, distributed
    storage. ``variable_list`` forms the key when ``cache_key_type`` is CUSTOM and must then
    hold at least one valid variable (:class:`CacheKeyVariable`: a plain :class:`Variable` is
    welcome too).
    """

    name: Name
    description: str | None = None
    cache_active: bool = False
    cache_only_http_get_requests: bool = True
    cache_key_type: CacheKeyType = CacheKeyType.QUERY_PARAMS
    cache_storage_type: CacheStorageType = CacheStorageType.DISTRIBUTED
    capacity: PositiveInt | None = None
    ttl: PositiveInt | None = None
    handling_action: CacheHandlingAction
    invalidation_requires_authn: bool = False
    cache_null_value: bool = False
    variable_list: list[CacheKeyVariable] = Field(default_factory=list)

    @field_validator("variable_list", mode="before")
    @classmethod
    def _plain_variables_as_cache_key_variables(cls, value: Any) -> Any:
        return as_cache_key_variables(value)

    @model_validator(mode="after")
    def _custom_key_needs_variables(self) -> Self:
        if self.cache_key_type is CacheKeyType.CUSTOM and not self.variable_list:
            raise field_errors(
                "CacheSettings",
                [("variable_list",
                  "variable_list must hold at least one variable when cache_key_type is CUSTOM", [])],
            )
        return self

    @classmethod
    def disabled(cls, name: str = "default") -> CacheSettings:
        """The spec's defaults with the cache off: the endpoint falls back to proxy-level cache."""
        return cls(name=name, handling_action=CacheHandlingAction.CONTINUE)


class EndpointCacheUpdate(EndpointTarget):
    """The body of the endpoint cache-settings operation: the target plus ``cacheSettings``."""

    cache_settings: CacheSettings

    def to_api(self) -> dict[str, Any]:
        body = super().to_api()
        body["cacheSettings"] = self.cache_settings.to_api()
        return body
