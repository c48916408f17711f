"""HTTP handlers of the reports, and their routes. State is in :mod:`reports`.

Both reports are for system administrators and analyzers (401 for anyone else, as documented).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from apinizer_pulumi.models import AccessReport, ApiProxiesReport

from . import reports
from .errors import BadRequestError
from .web import Route, json_response, principal, read

ORGANIZATION_REPORT = "/apiops/reports/organization-api-data-model-access"
API_PROXIES_REPORT = "/apiops/reports/api-proxies"


async def organization_report(request: Request) -> Response:
    principal(request).require_report_access()
    return json_response(read(request, reports.organization_access).model_dump(mode="json", by_alias=True))


async def api_proxies_report(request: Request) -> Response:
    principal(request).require_report_access()
    flag = request.query_params.get("includeEndpoints", "false").lower()
    if flag not in ("true", "false"):
        raise BadRequestError("includeEndpoints must be true or false")
    items = read(request, reports.api_proxies_report, flag == "true")
    return json_response({"success": True, "resultList": items, "resultCount": len(items)})


# (method, path template, handler, summary, request body model, response model)
ORGANIZATION_ROUTES: list[Route] = [
    ("GET", ORGANIZATION_REPORT, organization_report, "Organization access report", None, AccessReport),
]
#: The report of the product documentation's reports pages (14-reports/api-report.md).
API_PROXY_ROUTES: list[Route] = [
    (
        "GET",
        API_PROXIES_REPORT,
        api_proxies_report,
        "API proxies report (system administrators and analyzers)",
        None,
        ApiProxiesReport,
    ),
]
ROUTES = ORGANIZATION_ROUTES + API_PROXY_ROUTES
