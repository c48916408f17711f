"""The organization API and data model access report."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ._base import ApiModel
from ._enums import SharingType


class ProxyAccess(ApiModel):
    """Access information of one API proxy. The fields of ``access_list`` items are not shown."""

    api_proxy_name: str
    sharing_type: SharingType
    access_list: list[dict[str, Any]] = Field(default_factory=list)


class AccessReportResult(ApiModel):
    """The ``result`` object of the report."""

    api_proxy_list: list[ProxyAccess] = Field(default_factory=list)
    data_model_list: list[dict[str, Any]] = Field(default_factory=list)


class AccessReport(ApiModel):
    """The organization report: externally shared proxies (EXTERNAL or BOTH) and data models."""

    success: bool
    result: AccessReportResult
