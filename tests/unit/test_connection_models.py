"""The connection models against every JSON example of the connection pages
(``tests/_documented_connections.py``): each example parses as its type, holds no field the
models do not know, and gives its JSON back; the rules of each type; secrets out of reprs and errors.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/index.md
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

import _documented_connections as documented
from apinizer_pulumi.models import (
    CONNECTION_TYPES,
    ApiErrorBody,
    ConnectionEntry,
    ConnectionList,
    DeploymentResponse,
    ElasticsearchConnection,
    EmailConnection,
    KafkaConnection,
    SnmpConnection,
    UnknownConnectionTypeError,
    WebhookConnection,
    parse_connection,
    unknown_fields,
)

CREATE_PAGE = documented.CRUD_PAGES_DIR + "create-connection.md"
UPDATE_PAGE = documented.CRUD_PAGES_DIR + "update-connection.md"
LIST_PAGE = documented.CRUD_PAGES_DIR + "list-connections.md"

#: The examples that break their type page's own rules (docs/docs-disagreements.md), by
#: (page, example index, connection name): the field their type's model names as missing.
REFUSED = {
    # The CRUD pages' database examples: host, port, driverClassName; no dbType (nor jdbcUrl).
    (CREATE_PAGE, 6, "my-db-connection"): "db_type",
    (UPDATE_PAGE, 7, "my-db-connection"): "db_type",
    # The create page's kafka example: bootstrapServers instead of propertiesMap.
    (CREATE_PAGE, 7, "my-kafka-connection"): "properties_map",
    # The list page's kafka entry: abbreviated (no propertiesMap); the list keeps it as an entry.
    (LIST_PAGE, 0, "my-kafka-connection"): "properties_map",
}
#: The fields those examples carry that no type page lists.
CRUD_ONLY_FIELDS = {"host", "port", "driverClassName", "bootstrapServers"}
READ_ALIASES = documented.READ_ALIASES


def _is_answer(page: str, index: int) -> bool:
    """A connection from a list or get answer: secrets (and files) may be null there."""
    return "resultList" in documented.load()[page][index]["body"]


CASES = [
    pytest.param(page, index, body, id=f"{Path(page).stem}-{index}-{body.get('name')}")
    for page, index, body in documented.connection_bodies()
]


def test_the_pages_hold_a_connection_of_every_type() -> None:
    seen = {
        parse_connection(body, listed=True).type
        for page, index, body in documented.connection_bodies()
        if (page, index, body["name"]) not in REFUSED
    }
    assert seen == set(CONNECTION_TYPES)
    # The create page's list of types, less "ops-genie (if available)", which no page documents.
    assert len(CONNECTION_TYPES) == 14


@pytest.mark.parametrize(("page", "index", "body"), CASES)
def test_every_documented_connection_parses_and_round_trips(
    page: str, index: int, body: dict[str, Any]
) -> None:
    listed = _is_answer(page, index)
    refused = REFUSED.get((page, index, body["name"]))
    if refused is not None:
        with pytest.raises(ValidationError) as caught:
            parse_connection(body, listed=listed)
        assert refused in [str(error["loc"][0]) for error in caught.value.errors()]
        return
    model = parse_connection(body, listed=listed)
    assert unknown_fields(model) == []
    written = model.to_api()
    for key, value in body.items():
        if value is None or key == "type":
            continue
        assert written[READ_ALIASES.get(key, key)] == value, key
    assert parse_connection(written, listed=listed) == model


def test_the_refused_examples_carry_only_the_crud_pages_own_fields() -> None:
    for page, index, _ in REFUSED:
        if page == LIST_PAGE:
            continue
        body = documented.load()[page][index]["body"]
        model_fields = {
            info.alias or name for name, info in CONNECTION_TYPES[body["type"]].model_fields.items()
        }
        assert set(body) - model_fields <= CRUD_ONLY_FIELDS


def test_the_list_page_keeps_its_abbreviated_kafka_entry_as_an_entry() -> None:
    answer = ConnectionList.model_validate(documented.load()[LIST_PAGE][0]["body"])
    email, kafka = answer.result_list
    assert isinstance(email, EmailConnection) and email.password is None
    assert isinstance(kafka, ConnectionEntry) and kafka.model_extra == {
        "topicName": "events",
        "keyStoreName": "my-keystore",
        "trustStoreName": "my-truststore",
    }


def test_elasticsearch_bodies_whose_type_key_is_read_write_are_elasticsearch() -> None:
    # The page's examples end with a second "type": "READ_WRITE", which JSON readers keep.
    body = documented.load()[documented.TYPE_PAGES_DIR + "connection-elasticsearch.md"][1]["body"]
    assert body["type"] == "READ_WRITE"
    model = parse_connection(body)
    assert isinstance(model, ElasticsearchConnection)
    assert model.to_api()["type"] == "elasticsearch"


def test_an_unknown_or_missing_type_names_the_known_types() -> None:
    with pytest.raises(UnknownConnectionTypeError, match=r"unknown connection type 'ops-genie'.*email"):
        parse_connection({"type": "ops-genie", "name": "x"})
    with pytest.raises(UnknownConnectionTypeError, match="no type"):
        parse_connection({"name": "x"})


# -- rules ----------------------------------------------------------------------------------------


def _problems(body: dict[str, Any], listed: bool = False) -> dict[str, str]:
    with pytest.raises(ValidationError) as caught:
        parse_connection(body, listed=listed)
    return {".".join(str(p) for p in error["loc"]): error["msg"] for error in caught.value.errors()}


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"type": "email", "name": "e", "host": "smtp", "auth": True}, "username", "when auth is true"),
        (
            {"type": "email", "name": "e", "host": "smtp", "auth": True, "username": "u"},
            "password",
            "required",
        ),
        (
            {"type": "kafka", "name": "k", "topicName": "t", "propertiesMap": {}},
            "properties_map",
            "bootstrap.servers, key.serializer, value.serializer",
        ),
        (
            {
                "type": "kafka",
                "name": "k",
                "topicName": "t",
                "enableSecure": True,
                "propertiesMap": {
                    k: {"value": "v"} for k in ("bootstrap.servers", "key.serializer", "value.serializer")
                },
            },
            "key_store_name",
            "when enable_secure is true",
        ),
        (
            {
                "type": "elasticsearch",
                "name": "es",
                "elasticHostList": [{"host": "h"}],
                "encryptCommunication": True,
                "encryptCommunicationType": "CERT_AND_PRIVATE_KEY_IN_PKCS_12",
            },
            "ca_keystore_file_pass",
            "CERT_AND_PRIVATE_KEY_IN_PKCS_12",
        ),
        ({"type": "elasticsearch", "name": "es", "elasticHostList": []}, "elastic_host_list", "at least 1"),
        (
            {
                "type": "elasticsearch",
                "name": "es",
                "elasticHostList": [{"host": "h"}],
                "indexLifecyclePolicyCreated": True,
                "indexLifecyclePolicy": {},
            },
            "index_lifecycle_policy.enable_hot_phase",
            "at least one phase",
        ),
        (
            {"type": "database", "name": "d", "dbType": "POSTGRES", "jdbcUrl": "jdbc:x", "username": "u"},
            "password",
            "when use_credentials is true",
        ),
        ({"type": "database", "name": "d", "dbType": "NOSQL", "jdbcUrl": "jdbc:x"}, "db_type", "POSTGRES"),
        (
            {
                "type": "ldap",
                "name": "l",
                "serverAddress": "http://x",
                "username": "cn=a",
                "password": "p",
                "baseDn": "dc=x",
            },
            "server_address",
            "ldaps?://",
        ),
        (
            {"type": "ftp", "name": "f", "host": "h", "username": "u", "password": "p", "protocol": "FTPS"},
            "use_implicit",
            "FTPS needs use_implicit or use_explicit",
        ),
        (
            {
                "type": "ftp",
                "name": "f",
                "host": "h",
                "username": "u",
                "password": "p",
                "protocol": "FTPS",
                "useImplicit": True,
                "useExplicit": True,
            },
            "use_explicit",
            "mutually exclusive",
        ),
        (
            {
                "type": "rabbitMq",
                "name": "r",
                "hostPortList": [{"host": "h"}],
                "authenticationEnabled": True,
                "connectionFactoryUsername": "u",
            },
            "connection_factory_password",
            "when authentication_enabled is true",
        ),
        (
            {
                "type": "activeMq",
                "name": "a",
                "activeMqConnectionProtocolType": "STOMP",
                "brokerURL": "tcp://h",
                "destinationType": "QUEUE",
                "destinationName": "q",
            },
            "active_mq_connection_protocol_type",
            "TCP",
        ),
        (
            {
                "type": "snmp",
                "name": "s",
                "version": "V3",
                "connectionString": "udp:h/162",
                "securityOrCommunityName": "u",
                "pduOidForMessage": "1.3",
                "securityLevel": "AUTH_PRIV",
                "usmUserAuthenticationProtocol": "AuthSHA",
                "authPassphrase": "a",
                "usmUserPrivacyProtocol": "PrivDES",
            },
            "priv_passphrase",
            "when security_level is AUTH_PRIV",
        ),
        (
            {
                "type": "snmp",
                "name": "s",
                "connectionString": "192.168.1.2:162",
                "securityOrCommunityName": "c",
                "pduOidForMessage": "1.3",
            },
            "connection_string",
            "udp|tcp",
        ),
        ({"type": "linux-script", "name": "l", "hostName": "h", "username": "u"}, "password", "required"),
        (
            {"type": "graylog", "name": "g", "hostname": "h", "tlsCertVerificationEnabled": True},
            "tls_trust_cert_chain_file",
            "when tls_cert_verification_enabled is true",
        ),
        (
            {
                "type": "syslog",
                "name": "s",
                "syslogServerHostname": "h",
                "syslogProtocolType": "UDP",
                "syslogSslEnabled": True,
            },
            "syslog_ssl_enabled",
            "TCP",
        ),
        ({"type": "webhook", "name": "w", "fullUrl": "ftp://x"}, "full_url", "https?://"),
        (
            {
                "type": "webhook",
                "name": "w",
                "fullUrl": "https://x",
                "headerList": [{"name": "Authorization"}],
            },
            "header_list.0.value",
            "value is required",
        ),
        (
            {"type": "webhook", "name": "w", "fullUrl": "https://x", "httpMethod": "TRACE"},
            "http_method",
            "TRACE",
        ),
        ({"type": "logback", "name": "l", "maxFileSize": 0}, "max_file_size", "greater than 0"),
        ({"type": "email", "name": "", "host": "h"}, "name", "at least 1"),
    ],
)
def test_each_rule_names_its_field(body: dict[str, Any], field: str, message: str) -> None:
    problems = _problems(body)
    assert field in problems, problems
    assert re.search(message, problems[field]) or message in problems[field], problems[field]


def test_a_read_may_answer_secrets_null_but_a_write_may_not() -> None:
    body = {
        "type": "ldap",
        "name": "l",
        "serverAddress": "ldap://h:389",
        "username": "cn=a",
        "baseDn": "dc=x",
        "password": None,
    }
    assert parse_connection(body, listed=True).password is None  # type: ignore[attr-defined]
    assert "password" in _problems(body)


def test_the_documented_defaults_are_sent() -> None:
    email = EmailConnection(name="mail", host="smtp.example.com")
    assert email.to_api() == {
        "type": "email",
        "name": "mail",
        "deployToWorker": True,
        "enabled": True,
        "host": "smtp.example.com",
        "port": 587,
        "enableStartTls": False,
        "auth": False,
        "defaultEncoding": "UTF-8",
        "additionalProperties": [],
    }
    webhook = WebhookConnection(name="hook", full_url="https://example.com/h")
    assert (webhook.http_method, webhook.timeout, webhook.connection_pool_max_connection_total) == (
        "GET",
        2,
        48,
    )


def test_snmp_writes_the_table_names_of_what_it_read_under_others() -> None:
    model = SnmpConnection.model_validate(
        {
            "type": "snmp",
            "name": "s",
            "connectionString": "udp:h/162",
            "securityOrCommunityName": "public",
            "pduUdpForMessage": "1.3.6",
            "enabledUserAuthentication": False,
        }
    )
    written = model.to_api()
    assert written["pduOidForMessage"] == "1.3.6" and "pduUdpForMessage" not in written


# -- secrets --------------------------------------------------------------------------------------

SECRET = "Sup3r-S3cret-Value"


def test_every_type_declares_its_documented_secrets() -> None:
    secrets = {kind: model.secret_api_paths() for kind, model in CONNECTION_TYPES.items()}
    assert secrets == {
        "activeMq": ("password",),
        "database": ("password",),
        "elasticsearch": ("elasticPassword", "caTruststoreFilePass", "caKeystoreFile", "caKeystoreFilePass"),
        "email": ("password",),
        "ftp": ("password",),
        "graylog": (),
        "kafka": (),
        "ldap": ("password",),
        "linux-script": ("password",),
        "logback": (),
        "rabbitMq": ("connectionFactoryPassword",),
        "snmp": ("authPassphrase", "privPassphrase"),
        "syslog": ("syslogMessageHostname",),
        "webhook": ("headerList.value",),
    }


@pytest.mark.parametrize(
    "body",
    [
        {"type": "email", "name": "e", "host": "h", "auth": True, "username": "u", "password": SECRET},
        {
            "type": "webhook",
            "name": "w",
            "fullUrl": "https://x",
            "headerList": [{"name": "A", "value": SECRET}],
        },
        {
            "type": "snmp",
            "name": "s",
            "connectionString": "udp:h/1",
            "securityOrCommunityName": "c",
            "pduOidForMessage": "1",
            "version": "V3",
            "securityLevel": "AUTH_NOPRIV",
            "usmUserAuthenticationProtocol": "AuthSHA",
            "authPassphrase": SECRET,
        },
    ],
)
def test_secrets_are_in_no_repr_and_no_error(body: dict[str, Any]) -> None:
    assert SECRET not in repr(parse_connection(body))
    with pytest.raises(ValidationError) as caught:
        parse_connection({**body, "unexpected": 1, "name": 7})
    assert SECRET not in str(caught.value)
    assert SECRET not in repr(caught.value.errors())


def test_an_unknown_field_is_kept_and_named() -> None:
    model = KafkaConnection.model_validate(
        {
            "name": "k",
            "topicName": "t",
            "saslPassword": SECRET,
            "propertiesMap": {
                k: {"value": "v"} for k in ("bootstrap.servers", "key.serializer", "value.serializer")
            },
        }
    )
    assert unknown_fields(model) == ["saslPassword"]
    assert SECRET not in repr(model)


# -- the shape the settings classes are generated from ------------------------------------------


def test_scripts_gen_policy_args_can_render_every_connection_type() -> None:
    # The Connection resource's typed settings are generated as the policies' are (the script's
    # second target): each type's own fields beyond the common ones, its enums as Literals, nested
    # models as ...Args classes.
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    import gen_policy_args as generator

    source = generator.render_args(generator.CONNECTIONS)
    compile(source, "<connection settings>", "exec")
    assert 'secret_fields: ClassVar[tuple[str, ...]] = ("header_list.value",)' in source
    for nested in ("ElasticHostArgs", "RabbitMqHostPortArgs", "WebhookHeaderArgs", "MapValueArgs"):
        assert f"class {nested}:" in source
    assert 'SnmpVersionName = Literal["V1", "V2c", "V3"]' in source
    for model in CONNECTION_TYPES.values():
        assert f"class {model.__name__.removesuffix('Connection')}:" in source


def test_the_copied_examples_are_the_pages_own() -> None:
    # Where a copy of the documentation is at hand (it need not be), the data must be what it says.
    for docs in (Path(os.environ.get("MANAGEMENT_API_DOCS") or "/work/apidocs"),):
        if (docs / documented.FAMILIES[0]).is_dir():
            assert documented.read_pages(docs) == documented.load(), (
                "re-copy: python tests/_documented_connections.py"
            )


@pytest.mark.parametrize(
    ("page", "index", "answer"),
    [pytest.param(p, i, a, id=f"{Path(p).stem}-{i}") for p, i, a in documented.answers()],
)
def test_every_documented_write_answer_reads_as_a_deployment_answer(
    page: str, index: int, answer: dict
) -> None:
    parsed = DeploymentResponse.model_validate(answer)
    assert parsed.ok and (parsed.deployment_result is None or parsed.deployment_result.ok)


@pytest.mark.parametrize(
    ("page", "index", "body"),
    [pytest.param(p, i, b, id=f"{Path(p).stem}-{i}") for p, i, b in documented.errors()],
)
def test_every_documented_error_is_the_apis_error_body(page: str, index: int, body: dict) -> None:
    assert ApiErrorBody.model_validate(body).to_api() == body


def test_the_type_pages_answers_that_are_not_json_are_the_deployment_lists() -> None:
    # "deploymentResults": [...] on the type pages: written, not JSON (docs-disagreements.md).
    texts = [e["text"] for examples in documented.load().values() for e in examples if "text" in e]
    assert texts and all('"deploymentResults": [...]' in text for text in texts)
