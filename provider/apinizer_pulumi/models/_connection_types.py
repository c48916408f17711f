"""One model per documented connection type: its own fields, enums, defaults and rules, each from
the type's page (the ``Source:`` of each class). A secret field is ``None`` in a list answer, so
the rules that ask for one are not applied to a list entry (:func:`is_listed`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal, Self

from pydantic import AliasChoices, Field, ValidationInfo, model_validator

from ._base import PositiveInt
from ._connection import ConnectionBase, ConnectionModel, is_listed
from ._enums import HttpMethod
from ._policy import SecretField, raise_problems, require_field
from ._policy_security import MapValue

__all__: list[str] = []  # filled at the end from the module's public classes

Problems = list[tuple[str, str, Any]]


def _require_unless_listed(
    model: object, info: ValidationInfo, problems: Problems, field: str, why: str
) -> None:
    """``require_field`` for a secret field: a list answers secrets ``null``, so it is not asked there."""
    if not is_listed(info):
        require_field(model, problems, field, why)


# -- email ---------------------------------------------------------------------------------------


class EmailConnection(ConnectionBase):
    """Sends email over SMTP, for the policies and components that notify by email.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/connections/connection-email.md
    """

    connection_type = "email"
    type: Literal["email"] = Field("email", description="The connection type: email.")
    host: str = Field(min_length=1, description="The SMTP server's host name.")
    port: PositiveInt = Field(587, description="The SMTP server's port.")
    enable_start_tls: bool = Field(False, description="Use STARTTLS.")
    auth: bool = Field(False, description="Authenticate with username and password.")
    username: str | None = Field(None, description="SMTP user name (required when auth is true).")
    password: str | None = SecretField(None, description="SMTP password (required when auth is true).")
    default_encoding: str = Field("UTF-8", description="The messages' default encoding.")
    address_to_test: str | None = Field(None, description="An address to send a test message to.")
    from_: str | None = Field(None, alias="from", description="The default sender address.")
    additional_properties: list[Any] = Field(
        default_factory=list, description="Further SMTP properties, sent as given."
    )

    @model_validator(mode="after")
    def _check_auth(self, info: ValidationInfo) -> Self:
        problems: Problems = []
        if self.auth:
            require_field(self, problems, "username", "when auth is true")
            _require_unless_listed(self, info, problems, "password", "when auth is true")
        raise_problems(self, problems)
        return self


# -- kafka ---------------------------------------------------------------------------------------


class SslContextProtocolType(StrEnum):
    """A TLS or SSL version a secured Kafka connection may use (EnumSSLContextProtocolType)."""

    TLS_1_3 = "TLS_1_3"
    TLS_1_2 = "TLS_1_2"
    TLS_1_1 = "TLS_1_1"
    TLS_1_0 = "TLS_1_0"
    SSL_3_0 = "SSL_3_0"


#: The producer properties a Kafka connection's ``propertiesMap`` must hold (the page's Note).
KAFKA_REQUIRED_PROPERTIES = ("bootstrap.servers", "key.serializer", "value.serializer")


class KafkaConnection(ConnectionBase):
    """Sends messages to an Apache Kafka topic.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/connections/connection-kafka.md
    """

    connection_type = "kafka"
    type: Literal["kafka"] = Field("kafka", description="The connection type: kafka.")
    topic_name: str = Field(min_length=1, description="The Kafka topic.")
    properties_map: dict[str, MapValue] = Field(
        description=(
            "The producer's properties, each a value and its type; at least bootstrap.servers,"
            " key.serializer and value.serializer."
        )
    )
    enable_secure: bool = Field(False, description="Use SSL/TLS.")
    protocol_types: list[SslContextProtocolType] = Field(
        default_factory=list, description="The TLS versions allowed (at least one when enable_secure)."
    )
    key_store_name: str | None = Field(
        None, description="The keystore's name (required when enable_secure is true)."
    )
    trust_store_name: str | None = Field(
        None, description="The truststore's name, to check the brokers' certificates."
    )
    key_store_id: str | None = Field(None, description="The keystore's ID, as a read answers it.")
    trust_store_id: str | None = Field(None, description="The truststore's ID, as a read answers it.")

    @model_validator(mode="after")
    def _check_properties(self) -> Self:
        problems: Problems = []
        missing = [key for key in KAFKA_REQUIRED_PROPERTIES if key not in self.properties_map]
        if missing:
            problems.append(
                (
                    "properties_map",
                    f"properties_map must hold {', '.join(missing)}",
                    sorted(self.properties_map),
                )
            )
        if self.enable_secure:
            require_field(self, problems, "protocol_types", "when enable_secure is true")
            require_field(self, problems, "key_store_name", "when enable_secure is true")
        raise_problems(self, problems)
        return self


# -- elasticsearch -------------------------------------------------------------------------------


class ElasticScheme(StrEnum):
    """How an Elasticsearch host is reached."""

    HTTP = "http"
    HTTPS = "https"


class EncryptCommunicationType(StrEnum):
    """Where the CA (or the client's certificate) of an encrypted Elasticsearch connection is
    (EnumEncryptCommunicationType)."""

    CA_CERTIFICATE_IN_PKCS_12 = "CA_CERTIFICATE_IN_PKCS_12"
    CA_IN_PEM_FILE = "CA_IN_PEM_FILE"
    CERT_AND_PRIVATE_KEY_IN_PKCS_12 = "CERT_AND_PRIVATE_KEY_IN_PKCS_12"


class ElasticHost(ConnectionModel):
    """An Elasticsearch node (an ``elasticHostList`` item)."""

    scheme: ElasticScheme = Field(ElasticScheme.HTTP, description="http or https.")
    host: str = Field(min_length=1, description="The node's host name or IP address.")
    port: PositiveInt = Field(9200, description="The node's port.")


class ElasticsearchIndexLifecyclePolicy(ConnectionModel):
    """The index lifecycle policy the connection creates (ages in days, sizes in GB); at least one
    phase is enabled."""

    policy_name: str = Field("apinizer-log-ilm-policy-default", description="The policy's name.")
    enable_hot_phase: bool = Field(False, description="Enable the hot phase.")
    max_age_of_rollover: int | None = Field(None, description="Roll over after this many days.")
    max_index_size_of_rollover: int | None = Field(None, description="Roll over at this size (GB).")
    max_doc_count_of_rollover: int | None = Field(None, description="Roll over at this many documents.")
    enable_warm_phase: bool = Field(False, description="Enable the warm phase.")
    number_of_replicas_for_warm: int | None = Field(None, description="Replicas in the warm phase.")
    max_num_shards_for_shrink: int | None = Field(None, description="Shrink to at most this many shards.")
    max_num_segments_for_force_merge: int | None = Field(
        None, description="Force-merge to at most this many segments."
    )
    enable_cold_phase: bool = Field(False, description="Enable the cold phase.")
    min_age_of_cold: int | None = Field(None, description="Days before the cold phase.")
    number_of_replicas_for_cold: int | None = Field(None, description="Replicas in the cold phase.")
    enable_delete_phase: bool = Field(False, description="Enable the delete phase.")
    min_age_of_delete: int | None = Field(None, description="Days before deletion.")

    @model_validator(mode="after")
    def _check_phases(self) -> Self:
        phases = (
            self.enable_hot_phase,
            self.enable_warm_phase,
            self.enable_cold_phase,
            self.enable_delete_phase,
        )
        if not any(phases):
            raise_problems(
                self,
                [("enable_hot_phase", "at least one phase (hot, warm, cold, delete) must be enabled", False)],
            )
        return self


#: Per encryption type, the fields it needs (the page's Note).
_ENCRYPTION_NEEDS: dict[EncryptCommunicationType, tuple[str, ...]] = {
    EncryptCommunicationType.CA_CERTIFICATE_IN_PKCS_12: ("ca_cert_in_pkcs12_file",),
    EncryptCommunicationType.CA_IN_PEM_FILE: ("ca_in_pem_file",),
    EncryptCommunicationType.CERT_AND_PRIVATE_KEY_IN_PKCS_12: ("ca_keystore_file", "ca_keystore_file_pass"),
}


class ElasticsearchConnection(ConnectionBase):
    """Writes to (and may administrate) an Elasticsearch cluster, for traffic logs.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/connections/connection-elasticsearch.md
    """

    connection_type = "elasticsearch"
    type: Literal["elasticsearch"] = Field("elasticsearch", description="The connection type: elasticsearch.")
    administrate: bool = Field(False, description="Create and delete indices, templates and policies.")
    elastic_host_list: list[ElasticHost] = Field(
        min_length=1, description="The cluster's nodes, at least one."
    )
    authenticate: bool = Field(False, description="Authenticate with user name and password.")
    elastic_username: str | None = Field(None, description="User name (required when authenticate is true).")
    elastic_password: str | None = SecretField(
        None, description="Password (required when authenticate is true)."
    )
    encrypt_communication: bool = Field(False, description="Encrypt the communication (HTTPS).")
    encrypt_communication_type: EncryptCommunicationType | None = Field(
        None, description="Where the CA is (required when encrypt_communication is true)."
    )
    ca_cert_in_pkcs12_file: str | None = Field(
        None, description="The CA in PKCS#12, base64 (encrypt_communication_type CA_CERTIFICATE_IN_PKCS_12)."
    )
    ca_cert_in_pkcs12_file_content_type: str | None = Field(
        None, description="Its content type (the gateway's default: application/x-pkcs12)."
    )
    ca_in_pem_file: str | None = Field(None, description="The CA in PEM, base64 (CA_IN_PEM_FILE).")
    ca_in_pem_file_content_type: str | None = Field(
        None, description="Its content type (the gateway's default: application/x-pem-file)."
    )
    ca_truststore_file: str | None = Field(None, description="A CA truststore, base64.")
    ca_truststore_file_content_type: str | None = Field(
        None, description="Its content type (the gateway's default: application/x-pkcs12)."
    )
    ca_truststore_file_pass: str | None = SecretField(None, description="The truststore's password.")
    ca_keystore_file: str | None = SecretField(
        None,
        description=(
            "The client's certificate and private key in PKCS#12, base64 (CERT_AND_PRIVATE_KEY_IN_PKCS_12)."
        ),
    )
    ca_keystore_file_content_type: str | None = Field(
        None, description="Its content type (the gateway's default: application/x-pkcs12)."
    )
    ca_keystore_file_pass: str | None = SecretField(
        None, description="The keystore's password (required with ca_keystore_file)."
    )
    disable_hostname_verification: bool = Field(False, description="Skip host name verification.")
    index_lifecycle_policy_created: bool = Field(False, description="Create an index lifecycle policy.")
    index_lifecycle_policy: ElasticsearchIndexLifecyclePolicy | None = Field(
        None, description="The lifecycle policy (required when index_lifecycle_policy_created is true)."
    )
    index_template_created: bool = Field(False, description="Create an index template.")
    index_template_name: str | None = Field(
        None, description="The template's name (required when index_template_created is true)."
    )
    index_name: str | None = Field(None, description="The index name pattern.")
    index_template_number_of_shards: int | None = Field(None, description="Shards of the template.")
    index_template_number_of_replicas: int | None = Field(None, description="Replicas of the template.")
    index_template_refresh_interval: str | None = Field(None, description="Refresh interval, e.g. 1s.")
    connection_timeout_in_ms: int | None = Field(None, description="Connection timeout (ms).")
    socket_reuse_address: bool | None = Field(None, description="Reuse the socket address.")
    socket_keep_alive: bool | None = Field(None, description="Keep sockets alive.")
    io_threads: int | None = Field(None, description="IO threads.")
    max_connection_per_host: int | None = Field(None, description="Most connections per host.")
    max_connection_total: int | None = Field(None, description="Most connections in all.")

    @model_validator(mode="after")
    def _check_dependent_fields(self, info: ValidationInfo) -> Self:
        problems: Problems = []
        if self.authenticate:
            require_field(self, problems, "elastic_username", "when authenticate is true")
            _require_unless_listed(self, info, problems, "elastic_password", "when authenticate is true")
        if self.encrypt_communication:
            require_field(self, problems, "encrypt_communication_type", "when encrypt_communication is true")
        kind = self.encrypt_communication_type
        if kind is not None:
            # A read answers the files null as it answers the passwords (the get page's example).
            for field in _ENCRYPTION_NEEDS[kind]:
                _require_unless_listed(
                    self, info, problems, field, f"when encrypt_communication_type is {kind.value}"
                )
        if self.ca_keystore_file:
            _require_unless_listed(self, info, problems, "ca_keystore_file_pass", "with ca_keystore_file")
        if self.index_lifecycle_policy_created:
            require_field(
                self, problems, "index_lifecycle_policy", "when index_lifecycle_policy_created is true"
            )
        if self.index_template_created:
            require_field(self, problems, "index_template_name", "when index_template_created is true")
        raise_problems(self, problems)
        return self


# -- database ------------------------------------------------------------------------------------


class DatabaseType(StrEnum):
    """The database a connection reaches over JDBC (EnumDatabaseType)."""

    ORACLE = "ORACLE"
    MYSQL = "MYSQL"
    POSTGRES = "POSTGRES"
    SQL_SERVER = "SQL_SERVER"
    SYBASE = "SYBASE"
    DB2 = "DB2"
    APACHE_HIVE = "APACHE_HIVE"
    APACHE_IMPALA = "APACHE_IMPALA"
    MONGODB = "MONGODB"
    TRINO = "TRINO"


class DatabaseConnection(ConnectionBase):
    """Reaches a database over JDBC, through a connection pool.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/connections/connection-database.md
    """

    connection_type = "database"
    type: Literal["database"] = Field("database", description="The connection type: database.")
    db_type: DatabaseType = Field(description="The database: ORACLE, MYSQL, POSTGRES, SQL_SERVER...")
    jdbc_url: str = Field(min_length=1, description="The JDBC URL (jdbc:postgresql://host:5432/db).")
    use_credentials: bool = Field(True, description="Log in with username and password.")
    username: str | None = Field(None, description="User name (required when use_credentials is true).")
    database_name: str | None = Field(None, description="The database's name.")
    password: str | None = SecretField(None, description="Password (required when use_credentials is true).")
    initial_pool_size: int = Field(1, ge=0, description="Connections made at start.")
    min_pool_size: int = Field(1, ge=0, description="Fewest connections kept.")
    max_pool_size: PositiveInt = Field(5, description="Most connections.")
    increment_count: PositiveInt = Field(1, description="Connections added when the pool grows.")
    max_statements: int = Field(100, ge=0, description="Prepared statements kept per connection.")
    idle_connection_test_period: int = Field(
        30000, ge=0, description="How often idle connections are tested (ms)."
    )
    connection_timeout: int = Field(30000, ge=0, description="Longest wait for a connection (ms).")
    test_connection_on_checkout: bool = Field(True, description="Test a connection before use.")
    test_connection_on_checkin: bool = Field(False, description="Test a connection when it is returned.")
    max_connection_age: int = Field(180000, ge=0, description="Longest life of a connection (ms).")
    max_idle_time: int = Field(120000, ge=0, description="Longest idle time of a connection (ms).")
    selected_environment_id: str | None = Field(None, description="The selected environment's ID.")

    @model_validator(mode="after")
    def _check_credentials(self, info: ValidationInfo) -> Self:
        problems: Problems = []
        if self.use_credentials:
            require_field(self, problems, "username", "when use_credentials is true")
            _require_unless_listed(self, info, problems, "password", "when use_credentials is true")
        if self.min_pool_size > self.max_pool_size:
            problems.append(
                ("min_pool_size", "min_pool_size must not exceed max_pool_size", self.min_pool_size)
            )
        raise_problems(self, problems)
        return self


# -- ldap ----------------------------------------------------------------------------------------


class LdapRequireCertificateType(StrEnum):
    """How the LDAP server's certificate is checked (EnumLdapRequireCertificateType)."""

    NOT_REQUIRED = "NOT_REQUIRED"
    REQUIRED_CN = "REQUIRED_CN"
    REQUIRED_AN_PN = "REQUIRED_AN_PN"


class LdapSearchScope(StrEnum):
    """How deep an LDAP search goes (EnumSearchScope)."""

    OBJECT = "OBJECT"
    ONE_LEVEL = "ONE_LEVEL"
    SUBTREE = "SUBTREE"


class LdapConnection(ConnectionBase):
    """Binds to an LDAP directory (or Active Directory) to look users up.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/connections/connection-ldap.md
    """

    connection_type = "ldap"
    type: Literal["ldap"] = Field("ldap", description="The connection type: ldap.")
    server_address: str = Field(
        pattern=r"^ldaps?://\S+$", description="The server: ldap://host:port or ldaps://host:port."
    )
    require_certificate_type: LdapRequireCertificateType = Field(
        LdapRequireCertificateType.NOT_REQUIRED, description="How the server's certificate is checked."
    )
    username: str = Field(min_length=1, description="The bind DN.")
    password: str | None = SecretField(None, description="The bind DN's password (required).")
    custom_filter: str | None = Field(None, description="The search filter; {0} stands for the user name.")
    search_scope: LdapSearchScope = Field(
        LdapSearchScope.SUBTREE, description="OBJECT, ONE_LEVEL or SUBTREE."
    )
    base_dn: str = Field(min_length=1, description="The base DN of searches.")
    certificate_id: str | None = Field(
        None, description="The certificate's ID (required when use_ssl and the certificate is checked)."
    )
    certificate_name: str | None = Field(None, description="The certificate's name (for reference).")
    use_ssl: bool = Field(False, description="Use SSL/TLS (with an ldaps:// address).")
    selected_environment_id: str | None = Field(None, description="The selected environment's ID.")

    @model_validator(mode="after")
    def _check_bind(self, info: ValidationInfo) -> Self:
        problems: Problems = []
        _require_unless_listed(self, info, problems, "password", "(the bind DN's password)")
        if self.use_ssl and self.require_certificate_type is not LdapRequireCertificateType.NOT_REQUIRED:
            require_field(
                self, problems, "certificate_id", "when use_ssl is true and the certificate is checked"
            )
        raise_problems(self, problems)
        return self


# -- ftp -----------------------------------------------------------------------------------------


class FtpProtocol(StrEnum):
    """FTP, SFTP or FTPS (EnumFtpProtocol)."""

    FTP = "FTP"
    SFTP = "SFTP"
    FTPS = "FTPS"


class FtpConnection(ConnectionBase):
    """Transfers files to an FTP, SFTP or FTPS server.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/connections/connection-ftp.md
    """

    connection_type = "ftp"
    type: Literal["ftp"] = Field("ftp", description="The connection type: ftp.")
    host: str = Field(min_length=1, description="The server's host name or IP address.")
    port: PositiveInt = Field(21, description="The server's port (21 FTP/FTPS, 22 SFTP, 990 implicit FTPS).")
    username: str = Field(min_length=1, description="The FTP user name.")
    password: str | None = SecretField(None, description="The FTP password (required).")
    working_dir: str = Field("/", description="The working directory.")
    protocol: FtpProtocol = Field(description="FTP, SFTP or FTPS.")
    timeout: int = Field(30000, ge=0, description="Connection timeout (ms).")
    retry_count: int = Field(3, ge=0, description="Retries on failure.")
    use_implicit: bool = Field(False, description="Implicit SSL/TLS (FTPS only).")
    use_explicit: bool = Field(False, description="Explicit SSL/TLS (FTPS only).")
    ssl_protocol: str | None = Field(None, description="The SSL protocol, e.g. TLSv1.2.")

    @model_validator(mode="after")
    def _check_ftps(self, info: ValidationInfo) -> Self:
        problems: Problems = []
        _require_unless_listed(self, info, problems, "password", "(the FTP password)")
        if self.use_implicit and self.use_explicit:
            problems.append(("use_explicit", "use_implicit and use_explicit are mutually exclusive", True))
        elif self.protocol is FtpProtocol.FTPS and not (self.use_implicit or self.use_explicit):
            problems.append(("use_implicit", "FTPS needs use_implicit or use_explicit to be true", False))
        raise_problems(self, problems)
        return self


# -- rabbitMq ------------------------------------------------------------------------------------


class RabbitMqHostPort(ConnectionModel):
    """A RabbitMQ broker (a ``hostPortList`` item, ConfigRabbitMqHostPort)."""

    host: str = Field(min_length=1, description="The broker's host name or IP address.")
    port: PositiveInt = Field(5672, description="The broker's port (5672 AMQP, 5671 AMQPS).")


class RabbitMqConnection(ConnectionBase):
    """Publishes messages to RabbitMQ.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/connections/connection-rabbitmq.md
    """

    connection_type = "rabbitMq"
    type: Literal["rabbitMq"] = Field("rabbitMq", description="The connection type: rabbitMq.")
    host_port_list: list[RabbitMqHostPort] = Field(min_length=1, description="The brokers, at least one.")
    connection_factory_virtual_host: str = Field("/", description="The virtual host.")
    authentication_enabled: bool = Field(False, description="Authenticate with user name and password.")
    connection_factory_username: str | None = Field(
        None, description="User name (required when authentication_enabled is true)."
    )
    connection_factory_password: str | None = SecretField(
        None, description="Password (required when authentication_enabled is true)."
    )
    connection_factory_connection_timeout: int = Field(60000, ge=0, description="Connection timeout (ms).")
    connection_factory_client_properties: dict[str, Any] | None = Field(
        None, description="Client properties (key-value pairs)."
    )
    connection_factory_requested_channel_max: int = Field(
        2047, ge=0, description="Requested channel maximum."
    )
    connection_factory_requested_frame_max: int = Field(
        0, ge=0, description="Requested frame maximum (0: none)."
    )
    connection_factory_requested_heartbeat: int = Field(60, ge=0, description="Requested heartbeat (s).")
    connection_factory_use_ssl_protocol: bool = Field(False, description="Use SSL/TLS.")
    connection_factory_ssl_protocol: str = Field("TLSv1.2", description="The SSL protocol, e.g. TLSv1.3.")
    channel_exchange: str = Field("", description="The exchange (empty: the default exchange).")
    channel_routing_key: str | None = Field(
        None, description="The routing key (the gateway's default: the queue's name)."
    )
    basic_properties_app_id: str = Field("apinizer", description="The messages' application ID.")
    basic_properties_content_type: str = Field("application/json", description="The messages' content type.")
    basic_properties_content_encoding: str | None = Field(None, description="The messages' content encoding.")
    basic_properties_delivery_mode: Literal[1, 2] | None = Field(
        None, description="1: not persistent, 2: persistent."
    )
    basic_properties_priority: int | None = Field(None, ge=0, le=255, description="Priority, 0-255.")
    basic_properties_reply_to: str | None = Field(None, description="The reply-to queue.")
    basic_properties_expiration: str | None = Field(None, description="Expiration (ms, as a string).")
    basic_properties_type: str | None = Field(None, description="The message type.")
    basic_properties_user_id: str | None = Field(None, description="The user ID.")
    basic_properties_cluster_id: str | None = Field(None, description="The cluster ID.")

    @model_validator(mode="after")
    def _check_authentication(self, info: ValidationInfo) -> Self:
        problems: Problems = []
        if self.authentication_enabled:
            why = "when authentication_enabled is true"
            require_field(self, problems, "connection_factory_username", why)
            _require_unless_listed(self, info, problems, "connection_factory_password", why)
        raise_problems(self, problems)
        return self


# -- activeMq ------------------------------------------------------------------------------------


class ActiveMqConnectionProtocolType(StrEnum):
    """How the broker is reached (EnumActiveMqConnectionProtocolType)."""

    TCP = "TCP"
    AMQP = "AMQP"


class DestinationType(StrEnum):
    """A queue or a topic (EnumDestinationType)."""

    QUEUE = "QUEUE"
    TOPIC = "TOPIC"


class SessionAcknowledgmentType(StrEnum):
    """How messages are acknowledged (EnumSessionAcknowledgmentType)."""

    AUTO_ACKNOWLEDGE = "AUTO_ACKNOWLEDGE"
    CLIENT_ACKNOWLEDGE = "CLIENT_ACKNOWLEDGE"
    DUPS_OK_ACKNOWLEDGE = "DUPS_OK_ACKNOWLEDGE"
    SESSION_TRANSACTED = "SESSION_TRANSACTED"


class ActiveMqConnection(ConnectionBase):
    """Sends messages to an Apache ActiveMQ queue or topic.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/connections/connection-activemq.md
    """

    connection_type = "activeMq"
    type: Literal["activeMq"] = Field("activeMq", description="The connection type: activeMq.")
    active_mq_connection_protocol_type: ActiveMqConnectionProtocolType = Field(description="TCP or AMQP.")
    broker_url: str = Field(alias="brokerURL", min_length=1, description="The broker URL (tcp://host:61616).")
    username: str | None = Field(None, description="User name, where the broker asks for one.")
    password: str | None = SecretField(None, description="Password, where the broker asks for one.")
    destination_type: DestinationType = Field(description="QUEUE or TOPIC.")
    destination_name: str = Field(min_length=1, description="The queue's or topic's name.")
    session_acknowledgement: SessionAcknowledgmentType = Field(
        SessionAcknowledgmentType.AUTO_ACKNOWLEDGE, description="How messages are acknowledged."
    )
    send_timeout: int = Field(60000, ge=0, description="Send timeout (ms).")
    request_timeout: int = Field(60000, ge=0, description="Request timeout (ms).")
    close_timeout: int = Field(60000, ge=0, description="Close timeout (ms).")
    connect_timeout: int = Field(60000, ge=0, description="Connect timeout (ms).")
    content_type: str | None = Field(None, description="The messages' content type.")
    client_id: str | None = Field(None, alias="clientID", description="Client ID (durable subscriptions).")
    content_encoding: str | None = Field(None, description="The messages' content encoding.")


# -- snmp ----------------------------------------------------------------------------------------


class SnmpVersion(StrEnum):
    """SNMP version (EnumSnmpVersion)."""

    V1 = "V1"
    V2C = "V2c"
    V3 = "V3"


class SnmpMessageType(StrEnum):
    """A trap (unacknowledged) or an inform (acknowledged)."""

    TRAP = "TRAP"
    INFORM = "INFORM"


class SnmpSecurityLevel(StrEnum):
    """SNMPv3's security level (EnumSnmpSecurityLevel)."""

    NOAUTH_NOPRIV = "NOAUTH_NOPRIV"
    AUTH_NOPRIV = "AUTH_NOPRIV"
    AUTH_PRIV = "AUTH_PRIV"


class SnmpPrivacyProtocol(StrEnum):
    """SNMPv3's privacy protocols (EnumSnmpPrivacyProtocol)."""

    PRIV_AES128 = "PrivAES128"
    PRIV_AES192 = "PrivAES192"
    PRIV_AES192_WITH_3DES = "PrivAES192with3DES"
    PRIV_AES256 = "PrivAES256"
    PRIV_AES256_WITH_3DES = "PrivAES256with3DES"
    PRIV_DES = "PrivDES"
    PRIV_3DES = "Priv3DES"


class SnmpAuthenticationProtocol(StrEnum):
    """SNMPv3's authentication protocols (EnumSnmpAuthenticationProtocol)."""

    AUTH_MD5 = "AuthMD5"
    AUTH_SHA = "AuthSHA"
    AUTH_HMAC128_SHA224 = "AuthHMAC128SHA224"
    AUTH_HMAC192_SHA256 = "AuthHMAC192SHA256"
    AUTH_HMAC256_SHA384 = "AuthHMAC256SHA384"
    AUTH_HMAC384_SHA512 = "AuthHMAC384SHA512"


class SnmpConnection(ConnectionBase):
    """Sends SNMP traps or informs (v1, v2c or v3).

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/connections/connection-snmp.md
    """

    connection_type = "snmp"
    type: Literal["snmp"] = Field("snmp", description="The connection type: snmp.")
    version: SnmpVersion = Field(SnmpVersion.V1, description="V1, V2c or V3.")
    connection_string: str = Field(
        pattern=r"^(udp|tcp):\S+/\d+$", description="Where to send: protocol:host/port (udp:192.168.1.2/162)."
    )
    security_or_community_name: str = Field(
        min_length=1, description="The community (v1, v2c) or the security name (v3)."
    )
    retry_count: int | None = Field(None, ge=0, description="Retries.")
    timeout: int | None = Field(None, ge=0, description="Timeout (ms).")
    message_type: SnmpMessageType | None = Field(None, description="TRAP or INFORM.")
    # Two of the page's examples write pduUdpFor... and enabledUserAuthentication: read too.
    pdu_oid_for_message: str = Field(
        min_length=1,
        validation_alias=AliasChoices("pduOidForMessage", "pduUdpForMessage", "pdu_oid_for_message"),
        description="The OID of the message.",
    )
    pdu_oid_for_time: str | None = Field(
        None,
        validation_alias=AliasChoices("pduOidForTime", "pduUdpForTime", "pdu_oid_for_time"),
        description="The OID of the time stamp.",
    )
    pdu_variable_map: dict[str, Any] = Field(default_factory=dict, description="Further OID-value pairs.")
    security_level: SnmpSecurityLevel | None = Field(None, description="v3: the security level.")
    privacy_protocol_list: list[SnmpPrivacyProtocol] = Field(
        default_factory=list, description="v3: the privacy protocols supported."
    )
    enable_user_authentication: bool = Field(
        False,
        validation_alias=AliasChoices(
            "enableUserAuthentication", "enabledUserAuthentication", "enable_user_authentication"
        ),
        description="v3: USM user authentication.",
    )
    security_name: str | None = Field(
        None, description="v3: the security name (required when enable_user_authentication is true)."
    )
    usm_user_authentication_protocol: SnmpAuthenticationProtocol | None = Field(
        None, description="v3: the authentication protocol (AUTH_NOPRIV, AUTH_PRIV)."
    )
    auth_passphrase: str | None = SecretField(
        None, description="v3: the authentication passphrase (AUTH_NOPRIV, AUTH_PRIV)."
    )
    usm_user_privacy_protocol: SnmpPrivacyProtocol | None = Field(
        None, description="v3: the privacy protocol (AUTH_PRIV)."
    )
    priv_passphrase: str | None = SecretField(None, description="v3: the privacy passphrase (AUTH_PRIV).")

    @model_validator(mode="after")
    def _check_v3(self, info: ValidationInfo) -> Self:
        problems: Problems = []
        if self.version is SnmpVersion.V3:
            level = self.security_level
            if level in (SnmpSecurityLevel.AUTH_NOPRIV, SnmpSecurityLevel.AUTH_PRIV):
                why = f"when security_level is {level.value}"
                require_field(self, problems, "usm_user_authentication_protocol", why)
                _require_unless_listed(self, info, problems, "auth_passphrase", why)
            if level is SnmpSecurityLevel.AUTH_PRIV:
                why = "when security_level is AUTH_PRIV"
                require_field(self, problems, "usm_user_privacy_protocol", why)
                _require_unless_listed(self, info, problems, "priv_passphrase", why)
            if self.enable_user_authentication:
                require_field(self, problems, "security_name", "when enable_user_authentication is true")
        raise_problems(self, problems)
        return self


# -- linux-script --------------------------------------------------------------------------------


class LinuxScriptConnection(ConnectionBase):
    """Runs scripts on a Linux host over SSH.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/connections/connection-linux-script.md
    """

    connection_type = "linux-script"
    type: Literal["linux-script"] = Field("linux-script", description="The connection type: linux-script.")
    host_name: str = Field(min_length=1, description="The host's name or IP address.")
    ssh_port: PositiveInt = Field(22, description="The SSH port.")
    username: str = Field(min_length=1, description="The SSH user name.")
    password: str | None = SecretField(None, description="The SSH password (required).")

    @model_validator(mode="after")
    def _check_password(self, info: ValidationInfo) -> Self:
        problems: Problems = []
        _require_unless_listed(self, info, problems, "password", "(the SSH password)")
        raise_problems(self, problems)
        return self


# -- graylog -------------------------------------------------------------------------------------


class GelfTransport(StrEnum):
    """How GELF messages travel."""

    TCP = "TCP"
    UDP = "UDP"


class GelfCompression(StrEnum):
    """How GELF messages are compressed."""

    NONE = "NONE"
    GZIP = "GZIP"
    ZLIB = "ZLIB"


class GelfMessageLevel(StrEnum):
    """The default GELF level of a message."""

    EMERGENCY = "EMERGENCY"
    ALERT = "ALERT"
    CRITICAL = "CRITICAL"
    ERROR = "ERROR"
    WARNING = "WARNING"
    NOTICE = "NOTICE"
    INFO = "INFO"
    DEBUG = "DEBUG"


class GraylogConnection(ConnectionBase):
    """Sends GELF messages to Graylog.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/connections/connection-graylog.md
    """

    connection_type = "graylog"
    type: Literal["graylog"] = Field("graylog", description="The connection type: graylog.")
    hostname: str = Field(min_length=1, description="The Graylog server's host name or IP address.")
    port: PositiveInt = Field(12201, description="The GELF port.")
    transport_type: GelfTransport = Field(GelfTransport.TCP, description="TCP or UDP.")
    tls_enabled: bool = Field(False, description="Use TLS.")
    tls_cert_verification_enabled: bool = Field(
        False, description="Verify the server's certificate (needs tls_trust_cert_chain_file)."
    )
    compression_type: GelfCompression = Field(GelfCompression.NONE, description="NONE, GZIP or ZLIB.")
    gelf_message_level: GelfMessageLevel = Field(GelfMessageLevel.INFO, description="The default level.")
    queue_size: PositiveInt = Field(512, description="The message queue's size.")
    reconnect_delay: int = Field(2500, ge=0, description="Delay before reconnecting (ms).")
    connect_timeout: int = Field(10000, ge=0, description="Connect timeout (ms).")
    tcp_no_delay: bool = Field(True, description="TCP_NODELAY (TCP).")
    tcp_keep_alive: bool = Field(False, description="TCP keep-alive (TCP).")
    send_buffer_size: int = Field(-1, ge=-1, description="Send buffer (bytes; -1: the system's).")
    max_inflight_sends: PositiveInt = Field(512, description="Most sends in flight.")
    threads: int = Field(0, ge=0, description="Worker threads (0: the default).")
    tls_trust_cert_chain_file: str | None = Field(None, description="The trusted chain, base64.")
    tls_trust_cert_chain_file_name: str | None = Field(None, description="The chain file's name.")
    append_to_attributes: bool = Field(True, description="Append additional data to the attributes.")
    append_to_message: bool = Field(True, description="Append additional data to the message.")

    @model_validator(mode="after")
    def _check_tls(self) -> Self:
        problems: Problems = []
        if self.tls_cert_verification_enabled:
            require_field(
                self, problems, "tls_trust_cert_chain_file", "when tls_cert_verification_enabled is true"
            )
        raise_problems(self, problems)
        return self


# -- syslog --------------------------------------------------------------------------------------


class SyslogProtocolType(StrEnum):
    """TCP or UDP (EnumSyslogProtocolType)."""

    TCP = "TCP"
    UDP = "UDP"


class SyslogMessageFormat(StrEnum):
    """The syslog message format."""

    RFC_3164 = "RFC_3164"
    RFC_5424 = "RFC_5424"
    RFC_5425 = "RFC_5425"


class SyslogFacility(StrEnum):
    """The syslog facility."""

    KERN = "KERN"
    USER = "USER"
    MAIL = "MAIL"
    DAEMON = "DAEMON"
    AUTH = "AUTH"
    SYSLOG = "SYSLOG"
    LPR = "LPR"
    NEWS = "NEWS"
    UUCP = "UUCP"
    CRON = "CRON"
    AUTHPRIV = "AUTHPRIV"
    FTP = "FTP"
    NTP = "NTP"
    AUDIT = "AUDIT"
    ALERT = "ALERT"
    CLOCK = "CLOCK"
    LOCAL0 = "LOCAL0"
    LOCAL1 = "LOCAL1"
    LOCAL2 = "LOCAL2"
    LOCAL3 = "LOCAL3"
    LOCAL4 = "LOCAL4"
    LOCAL5 = "LOCAL5"
    LOCAL6 = "LOCAL6"
    LOCAL7 = "LOCAL7"


class SyslogSeverity(StrEnum):
    """The syslog severity."""

    EMERGENCY = "EMERGENCY"
    ALERT = "ALERT"
    CRITICAL = "CRITICAL"
    ERROR = "ERROR"
    WARNING = "WARNING"
    NOTICE = "NOTICE"
    INFORMATIONAL = "INFORMATIONAL"
    DEBUG = "DEBUG"


class SyslogConnection(ConnectionBase):
    """Sends syslog messages.

    ``syslog_message_hostname`` is a secret here: the page says that some cloud syslog services
    carry their secret keys in it.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/connections/connection-syslog.md
    """

    connection_type = "syslog"
    type: Literal["syslog"] = Field("syslog", description="The connection type: syslog.")
    syslog_protocol_type: SyslogProtocolType = Field(SyslogProtocolType.TCP, description="TCP or UDP.")
    syslog_message_hostname: str | None = SecretField(
        None, description="The host name written in the messages (some services carry a secret key in it)."
    )
    syslog_server_hostname: str = Field(
        min_length=1, description="The syslog server's host name or IP address."
    )
    syslog_port: PositiveInt = Field(514, description="The syslog port.")
    syslog_timeout: int = Field(500, ge=0, description="Connect timeout (ms, TCP only).")
    syslog_message_format: SyslogMessageFormat = Field(
        SyslogMessageFormat.RFC_3164, description="RFC_3164, RFC_5424 or RFC_5425."
    )
    syslog_app_name: str = Field("Apinizer", description="The application name in the messages.")
    syslog_facility: SyslogFacility = Field(SyslogFacility.AUDIT, description="The facility.")
    syslog_severity: SyslogSeverity = Field(SyslogSeverity.INFORMATIONAL, description="The severity.")
    syslog_ssl_enabled: bool = Field(False, description="Use SSL/TLS (TCP only).")

    @model_validator(mode="after")
    def _check_ssl(self) -> Self:
        problems: Problems = []
        if self.syslog_ssl_enabled and self.syslog_protocol_type is SyslogProtocolType.UDP:
            problems.append(("syslog_ssl_enabled", "syslog_ssl_enabled needs syslog_protocol_type TCP", True))
        raise_problems(self, problems)
        return self


# -- webhook -------------------------------------------------------------------------------------


class WebhookHeader(ConnectionModel):
    """A header sent with every call (a ``headerList`` item). Its value is a secret: it carries
    tokens (``Authorization: Bearer ...``, ``X-API-Key``)."""

    name: str = Field(min_length=1, description="The header's name.")
    value: str | None = SecretField(None, description="The header's value (required).")

    @model_validator(mode="after")
    def _check_value(self, info: ValidationInfo) -> Self:
        problems: Problems = []
        if not is_listed(info) and self.value is None:
            problems.append(("value", "value is required", None))
        raise_problems(self, problems)
        return self


class WebhookConnection(ConnectionBase):
    """Calls an HTTP(S) URL.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/connections/connection-webhook.md
    """

    connection_type = "webhook"
    type: Literal["webhook"] = Field("webhook", description="The connection type: webhook.")
    http_method: HttpMethod = Field(HttpMethod.GET, description="The HTTP method.")
    full_url: str = Field(pattern=r"^https?://\S+$", description="The whole URL (http:// or https://).")
    header_list: list[WebhookHeader] = Field(
        default_factory=list, description="Headers sent with every call."
    )
    timeout: PositiveInt = Field(2, description="Timeout (seconds).")
    connection_pool_max_connection_per_host: PositiveInt = Field(24, description="Most connections per host.")
    connection_pool_max_connection_total: PositiveInt = Field(48, description="Most connections in all.")

    @model_validator(mode="after")
    def _check_method(self) -> Self:
        if self.http_method in (HttpMethod.TRACE, HttpMethod.ALL):
            raise_problems(
                self,
                [
                    (
                        "http_method",
                        f"http_method must be GET, POST, PUT, DELETE, PATCH, HEAD or OPTIONS, not "
                        f"{self.http_method.value}",
                        self.http_method.value,
                    )
                ],
            )
        return self


# -- logback -------------------------------------------------------------------------------------


class LogbackConnection(ConnectionBase):
    """Writes traffic logs to rolling files with Logback.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/connections/connection-logback.md
    """

    connection_type = "logback"
    type: Literal["logback"] = Field("logback", description="The connection type: logback.")
    log_path: str = Field("/path/to/logs/", min_length=1, description="The log folder (ends with /).")
    log_file_name: str = Field("ApinizerApiProxyTraffic", min_length=1, description="The files' base name.")
    log_pod_name: str = Field("", description="The pod or host name in the files' names (empty: the host's).")
    log_filename_pattern: str = Field("%d{yyyy-MM-dd}.%i.log", description="The rolled files' name pattern.")
    log_pattern: str = Field("%d{yyyy-MM-dd HH:mm:ss.SSS}[%m]%n", description="The Logback layout pattern.")
    max_file_size: PositiveInt = Field(25, description="A file's largest size (MB).")
    max_history: int = Field(0, ge=0, description="Rolled files kept (0: no limit).")
    total_size_cap: int = Field(0, ge=0, description="All files' largest size (GB; 0: no limit).")


__all__ = sorted(
    [
        name
        for name, value in dict(globals()).items()
        if not name.startswith("_") and isinstance(value, type) and value.__module__ == __name__
    ]
    + ["KAFKA_REQUIRED_PROPERTIES"]
)
