"""The reports family: the organization's access report and the API proxies report; state and rules.

Reports only read what other families store; the family's own table is the fixture's data models,
which only the organization report shows. Functions take a store connection.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from apinizer_pulumi.models import AccessReport, AccessReportResult, ProxyAccess, SharingType

from .deployments import details_of
from .fixtures import Fixture
from .models import Proxy

SCHEMA = """
CREATE TABLE IF NOT EXISTS data_models (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    body TEXT NOT NULL
);
"""
#: The family's tables, children first (the order a wipe deletes them in).
DATA_TABLES = ("data_models",)

_EXTERNAL = (SharingType.EXTERNAL.value, SharingType.BOTH.value)


def load_fixture(db: sqlite3.Connection, fixture: Fixture) -> None:
    for data_model in fixture.data_model_list:
        db.execute("INSERT INTO data_models (body) VALUES (?)", (json.dumps(data_model),))


def data_models(db: sqlite3.Connection) -> list[Any]:
    return [json.loads(r["body"]) for r in db.execute("SELECT body FROM data_models ORDER BY seq")]


def organization_access(db: sqlite3.Connection) -> AccessReport:
    """Externally shared proxies (EXTERNAL or BOTH) and the data models (spec 4.2)."""
    proxies = [
        Proxy.from_row(r)
        for r in db.execute("SELECT * FROM proxies WHERE sharing_type IN (?, ?) ORDER BY seq", _EXTERNAL)
    ]
    return AccessReport(
        success=True,
        result=AccessReportResult(
            api_proxy_list=[
                ProxyAccess(
                    api_proxy_name=p.name,
                    sharing_type=SharingType(p.sharing_type),
                    access_list=p.access_list,
                )
                for p in proxies
            ],
            data_model_list=data_models(db),
        ),
    )


def api_proxies_report(db: sqlite3.Connection, include_endpoints: bool) -> list[dict[str, Any]]:
    """Every proxy of every project, by project and name; endpoints as ``"<METHOD> <path>"`` when asked.

    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/14-reports/api-report.md
    """
    rows = db.execute(
        "SELECT p.*, d.body FROM proxies p LEFT JOIN proxy_details d ON d.proxy_id = p.id"
        " ORDER BY p.project, p.name"
    ).fetchall()
    report = []
    for row in rows:
        item: dict[str, Any] = {
            "id": row["id"],
            "name": row["name"],
            "description": details_of(row).get("description"),
            "type": row["type"],
        }
        if include_endpoints:
            item["endpoints"] = [
                {
                    "id": e["id"],
                    "name": f"{e['http_method']} {e['name']}",
                    "method": e["http_method"],
                    "path": e["name"],
                }
                for e in db.execute(
                    "SELECT id, name, http_method FROM endpoints WHERE proxy_id = ? ORDER BY seq",
                    (row["id"],),
                )
            ]
        report.append(item)
    return report
