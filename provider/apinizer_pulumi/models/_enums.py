"""Every enumeration of the management API, with exactly the values the spec lists."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal


class HttpMethod(StrEnum):
    """EnumHttpRequestMethod."""

    GET = "GET"
    POST = "POST"
    PUT = "PUT"
    DELETE = "DELETE"
    PATCH = "PATCH"
    OPTIONS = "OPTIONS"
    HEAD = "HEAD"
    TRACE = "TRACE"
    ALL = "ALL"


#: The values of :class:`HttpMethod` as a type: where a method is taken, ``"GET"`` type-checks too.
HttpMethodName = Literal["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "ALL"]


class CacheKeyType(StrEnum):
    """EnumCacheKeyType: what forms the cache key."""

    QUERY_PARAMS = "QUERY_PARAMS"
    CUSTOM = "CUSTOM"


class CacheStorageType(StrEnum):
    """EnumCacheStorageType: per worker (LOCAL) or shared by all workers (DISTRIBUTED)."""

    LOCAL = "LOCAL"
    DISTRIBUTED = "DISTRIBUTED"


class CacheHandlingAction(StrEnum):
    """EnumCacheHandlingAction: on a hit, still call the backend (CONTINUE) or not (STOP)."""

    CONTINUE = "CONTINUE"
    STOP = "STOP"


class RateLimitTimeInterval(StrEnum):
    """EnumRateLimitTimeInterval."""

    ONE_SECOND = "ONE_SECOND"
    ONE_MINUTE = "ONE_MINUTE"
    ONE_HOUR = "ONE_HOUR"
    ONE_DAY = "ONE_DAY"
    ONE_MONTH = "ONE_MONTH"


class CacheErrorHandlingType(StrEnum):
    """EnumCacheErrorHandlingType: fail the request on a cache error, or continue."""

    FAIL = "FAIL"
    CONTINUE = "CONTINUE"


class IntervalWindowType(StrEnum):
    """EnumIntervalWindowType."""

    FIXED = "FIXED"
    SLIDING = "SLIDING"


class ExecutionOrder(StrEnum):
    """EnumExecutionOrder of an RLCL: run before or after the other RLCLs.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/create-rlcl.md
    """

    FIRST = "FIRST"
    LAST = "LAST"


class ScriptType(StrEnum):
    """EnumScriptType: the language of a CUSTOM variable's script.

    The spec leaves the values "not shown"; the product's documentation lists these two:
    https://github.com/apinizer/management-api-docs/blob/main/03-appendix/enum-reference.md
    """

    GROOVY = "GROOVY"
    JAVASCRIPT = "JAVASCRIPT"


class WsaMustUnderstand(StrEnum):
    """EnumSoapWsaMustUnderstand."""

    NONE = "NONE"
    TRUE = "TRUE"
    FALSE = "FALSE"


class WsaVersion(StrEnum):
    """EnumSoapWsaVersion."""

    V200408 = "V200408"
    V200508 = "V200508"


class VariableType(StrEnum):
    """Where a variable takes its value from."""

    HEADER = "HEADER"
    PARAMETER = "PARAMETER"
    BODY = "BODY"
    CONTEXT_VALUES = "CONTEXT_VALUES"
    CUSTOM = "CUSTOM"


class ParamType(StrEnum):
    """Kind of parameter a PARAMETER variable reads."""

    QUERY = "QUERY"
    PATH = "PATH"
    FORM = "FORM"


class MessageContentType(StrEnum):
    """Content type a BODY variable reads.

    The spec lists XML, JSON and ALL_BODY; the product's enum reference adds FORM:
    https://github.com/apinizer/management-api-docs/blob/main/03-appendix/enum-reference.md
    """

    XML = "XML"
    JSON = "JSON"
    ALL_BODY = "ALL_BODY"
    FORM = "FORM"


class VariableDataType(StrEnum):
    """EnumConditionVariableDataType: the ``dataType`` of a variable.

    The spec leaves its values "not shown"; the product's documentation lists these three:
    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/settings/update-cache-settings.md
    """

    NUMERIC = "NUMERIC"
    STRING = "STRING"
    DATE = "DATE"


class SharingType(StrEnum):
    """EnumSharingType of an API proxy in the organization access report."""

    EXTERNAL = "EXTERNAL"
    INTERNAL = "INTERNAL"
    BOTH = "BOTH"
    NONE = "NONE"


class ContextValue(StrEnum):
    """EnumVariableContextValue."""

    # Request
    REQUEST_REMOTE_ADDRESS = "REQUEST_REMOTE_ADDRESS"
    REQUEST_HTTP_METHOD = "REQUEST_HTTP_METHOD"
    REQUEST_CONTENT_TYPE = "REQUEST_CONTENT_TYPE"
    REQUEST_PATH_INFO = "REQUEST_PATH_INFO"
    REQUEST_CONTEXT_PATH = "REQUEST_CONTEXT_PATH"
    REQUEST_QUERY_STRING = "REQUEST_QUERY_STRING"
    REQUEST_REMOTE_USER = "REQUEST_REMOTE_USER"
    REQUEST_USERNAME_KEY = "REQUEST_USERNAME_KEY"
    REQUEST_REQUESTED_SESSION_ID = "REQUEST_REQUESTED_SESSION_ID"
    REQUEST_REQUEST_URI = "REQUEST_REQUEST_URI"
    REQUEST_CHARACTER_ENCODING = "REQUEST_CHARACTER_ENCODING"
    REQUEST_CHARSET = "REQUEST_CHARSET"
    REQUEST_CONTENT_LENGTH = "REQUEST_CONTENT_LENGTH"
    REQUEST_PROTOCOL = "REQUEST_PROTOCOL"
    REQUEST_SCHEME = "REQUEST_SCHEME"
    REQUEST_SERVER_NAME = "REQUEST_SERVER_NAME"
    REQUEST_SERVER_PORT = "REQUEST_SERVER_PORT"
    REQUEST_REMOTE_HOST = "REQUEST_REMOTE_HOST"
    REQUEST_REMOTE_PORT = "REQUEST_REMOTE_PORT"
    REQUEST_LOCAL_NAME = "REQUEST_LOCAL_NAME"
    REQUEST_LOCAL_ADDR = "REQUEST_LOCAL_ADDR"
    REQUEST_LOCAL_PORT = "REQUEST_LOCAL_PORT"
    REQUEST_XFORWARDED_FOR = "REQUEST_XFORWARDED_FOR"
    # Request status
    REQUEST_IS_SOAP_TO_REST = "REQUEST_IS_SOAP_TO_REST"
    REQUEST_IS_APIPROXY = "REQUEST_IS_APIPROXY"
    REQUEST_IS_APIPROXYGROUP = "REQUEST_IS_APIPROXYGROUP"
    REQUEST_IS_XWWW_FORM_URL_ENCODED = "REQUEST_IS_XWWW_FORM_URL_ENCODED"
    REQUEST_IS_FORM_DATA = "REQUEST_IS_FORM_DATA"
    REQUEST_IS_BYTE_ARRAY = "REQUEST_IS_BYTE_ARRAY"
    REQUEST_HAS_ATTACHMENT = "REQUEST_HAS_ATTACHMENT"
    REQUEST_GZIP = "REQUEST_GZIP"
    REQUEST_DEFLATE = "REQUEST_DEFLATE"
    REQUEST_BR = "REQUEST_BR"
    REQUEST_ZSTD = "REQUEST_ZSTD"
    REQUEST_IDENTITY = "REQUEST_IDENTITY"
    REQUEST_COMPRESS = "REQUEST_COMPRESS"
    REQUEST_HTTP_SERVLET = "REQUEST_HTTP_SERVLET"
    # Response
    RESPONSE_IS_BYTE_ARRAY = "RESPONSE_IS_BYTE_ARRAY"
    RESPONSE_GZIP = "RESPONSE_GZIP"
    RESPONSE_DEFLATE = "RESPONSE_DEFLATE"
    RESPONSE_BR = "RESPONSE_BR"
    RESPONSE_ZSTD = "RESPONSE_ZSTD"
    RESPONSE_IDENTITY = "RESPONSE_IDENTITY"
    RESPONSE_COMPRESS = "RESPONSE_COMPRESS"
    RESPONSE_STATUS_CODE = "RESPONSE_STATUS_CODE"
    RESPONSE_HTTP_SERVLET = "RESPONSE_HTTP_SERVLET"
    # Message
    MESSAGE_CORRELATION_ID = "MESSAGE_CORRELATION_ID"
    # Environment
    ENVIRONMENT_ID = "ENVIRONMENT_ID"
    ENVIRONMENT_NAME = "ENVIRONMENT_NAME"
    ENVIRONMENT_CERTIFICATE = "ENVIRONMENT_CERTIFICATE"
    ENVIRONMENT_PRIVATEKEY = "ENVIRONMENT_PRIVATEKEY"
    ENVIRONMENT_PUBLICKEY = "ENVIRONMENT_PUBLICKEY"
    ENVIRONMENT_SECRETKEY = "ENVIRONMENT_SECRETKEY"
    ENVIRONMENT_KEYSTORE = "ENVIRONMENT_KEYSTORE"
    ENVIRONMENT_JWK = "ENVIRONMENT_JWK"
    # Proxy group / proxy / method
    APIPROXYGROUP_ID = "APIPROXYGROUP_ID"
    APIPROXYGROUP_NAME = "APIPROXYGROUP_NAME"
    APIPROXY_ID = "APIPROXY_ID"
    APIPROXY_NAME = "APIPROXY_NAME"
    APIMETHOD_ID = "APIMETHOD_ID"
    APIMETHOD_NAME = "APIMETHOD_NAME"
    APIMETHOD_SOAP_ACTION = "APIMETHOD_SOAP_ACTION"
    APIMETHOD_HTTPMETHOD = "APIMETHOD_HTTPMETHOD"
    APIMETHOD_ENDPOINT = "APIMETHOD_ENDPOINT"
    APIMETHOD_BACKEND_HTTPMETHOD = "APIMETHOD_BACKEND_HTTPMETHOD"
    APIMETHOD_BACKEND_ENDPOINT = "APIMETHOD_BACKEND_ENDPOINT"
    # Date/time: each needs a zoneId
    DATETIME_YEAR = "DATETIME_YEAR"
    DATETIME_MONTH = "DATETIME_MONTH"
    DATETIME_DAY_OF_WEEK = "DATETIME_DAY_OF_WEEK"
    DATETIME_DAY_OF_MONTH = "DATETIME_DAY_OF_MONTH"
    DATETIME_HOUR = "DATETIME_HOUR"
    DATETIME_MINUTE = "DATETIME_MINUTE"
    DATETIME_SECOND = "DATETIME_SECOND"
    DATETIME_EPOCH_MILLIS = "DATETIME_EPOCH_MILLIS"
    DATETIME_FORMATTED_TEXT = "DATETIME_FORMATTED_TEXT"
    DATE_FORMATTED_TEXT = "DATE_FORMATTED_TEXT"
    TIME_FORMATTED_TEXT = "TIME_FORMATTED_TEXT"
    # Credential
    CREDENTIAL_USERNAME = "CREDENTIAL_USERNAME"
    CREDENTIAL_EMAIL = "CREDENTIAL_EMAIL"
    CREDENTIAL_FULLNAME = "CREDENTIAL_FULLNAME"
    CREDENTIAL_SECRETKEY = "CREDENTIAL_SECRETKEY"
    CREDENTIAL_CERTIFICATE = "CREDENTIAL_CERTIFICATE"
    CREDENTIAL_PUBLICKEY = "CREDENTIAL_PUBLICKEY"
    CREDENTIAL_PRIVATEKEY = "CREDENTIAL_PRIVATEKEY"
    CREDENTIAL_KEYSTORE = "CREDENTIAL_KEYSTORE"
    CREDENTIAL_TRUSTSTORE = "CREDENTIAL_TRUSTSTORE"
    CREDENTIAL_JWK_SIGNANDVALIDATION = "CREDENTIAL_JWK_SIGNANDVALIDATION"
    CREDENTIAL_JWK_ENCRYPTIONANDDECRYPTION = "CREDENTIAL_JWK_ENCRYPTIONANDDECRYPTION"

    @property
    def needs_zone_id(self) -> bool:
        """Date and time context values are computed in a time zone, so they need a zoneId."""
        return self.name.startswith(("DATETIME_", "DATE_", "TIME_"))
