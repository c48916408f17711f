"""The enumerated inputs of the resources, as types that mypy and IDEs check.

Each input takes the API's value as a string (``"GET"``) or the model's enum member
(``HttpMethod.GET``), plain or inside a ``pulumi.Input`` (an ``Output`` of either). A value outside
the enumeration (``http_method="FETCH"``) is a type error where the program is written, before
``pulumi preview`` rejects it.

The aliases name the models' enums only for type checkers: a program that declares resources
imports neither pydantic nor the models (docs/performance.md). ``tests/unit/test_types.py`` keeps
each ``Literal`` equal to its enum.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeAlias

if TYPE_CHECKING:
    from apinizer_pulumi.models import (
        AccessType,
        ApiProxySpecType,
        CacheErrorHandlingType,
        CacheHandlingAction,
        CacheKeyType,
        CacheStorageType,
        ContextValue,
        ExecutionOrder,
        HttpMethod,
        IntervalWindowType,
        MessageContentType,
        ParamType,
        RateLimitTimeInterval,
        ScriptType,
        SharingType,
        VariableType,
        WsaMustUnderstand,
        WsaVersion,
    )

HttpMethodName = Literal["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "ALL"]
ApiProxySpecTypeName = Literal["OPEN_API", "SWAGGER", "WSDL", "REVERSE_PROXY"]
SharingTypeName = Literal["EXTERNAL", "INTERNAL", "BOTH", "NONE"]
CacheKeyTypeName = Literal["QUERY_PARAMS", "CUSTOM"]
CacheStorageTypeName = Literal["LOCAL", "DISTRIBUTED"]
CacheHandlingActionName = Literal["CONTINUE", "STOP"]
RateLimitTimeIntervalName = Literal["ONE_SECOND", "ONE_MINUTE", "ONE_HOUR", "ONE_DAY", "ONE_MONTH"]
CacheErrorHandlingTypeName = Literal["FAIL", "CONTINUE"]
IntervalWindowTypeName = Literal["FIXED", "SLIDING"]
ExecutionOrderName = Literal["FIRST", "LAST"]
ScriptTypeName = Literal["GROOVY", "JAVASCRIPT"]
WsaMustUnderstandName = Literal["NONE", "TRUE", "FALSE"]
WsaVersionName = Literal["V200408", "V200508"]
VariableTypeName = Literal["HEADER", "PARAMETER", "BODY", "CONTEXT_VALUES", "CUSTOM"]
ParamTypeName = Literal["QUERY", "PATH", "FORM"]
MessageContentTypeName = Literal["XML", "JSON", "ALL_BODY", "FORM"]
ContextValueName = Literal[
    "REQUEST_REMOTE_ADDRESS", "REQUEST_HTTP_METHOD", "REQUEST_CONTENT_TYPE", "REQUEST_PATH_INFO",
    "REQUEST_CONTEXT_PATH", "REQUEST_QUERY_STRING", "REQUEST_REMOTE_USER", "REQUEST_USERNAME_KEY",
    "REQUEST_REQUESTED_SESSION_ID", "REQUEST_REQUEST_URI", "REQUEST_CHARACTER_ENCODING", "REQUEST_CHARSET",
    "REQUEST_CONTENT_LENGTH", "REQUEST_PROTOCOL", "REQUEST_SCHEME", "REQUEST_SERVER_NAME",
    "REQUEST_SERVER_PORT", "REQUEST_REMOTE_HOST", "REQUEST_REMOTE_PORT", "REQUEST_LOCAL_NAME",
    "REQUEST_LOCAL_ADDR", "REQUEST_LOCAL_PORT", "REQUEST_XFORWARDED_FOR",
    "REQUEST_IS_SOAP_TO_REST", "REQUEST_IS_APIPROXY", "REQUEST_IS_APIPROXYGROUP",
    "REQUEST_IS_XWWW_FORM_URL_ENCODED", "REQUEST_IS_FORM_DATA", "REQUEST_IS_BYTE_ARRAY",
    "REQUEST_HAS_ATTACHMENT", "REQUEST_GZIP", "REQUEST_DEFLATE", "REQUEST_BR", "REQUEST_ZSTD",
    "REQUEST_IDENTITY", "REQUEST_COMPRESS", "REQUEST_HTTP_SERVLET",
    "RESPONSE_IS_BYTE_ARRAY", "RESPONSE_GZIP", "RESPONSE_DEFLATE", "RESPONSE_BR", "RESPONSE_ZSTD",
    "RESPONSE_IDENTITY", "RESPONSE_COMPRESS", "RESPONSE_STATUS_CODE", "RESPONSE_HTTP_SERVLET",
    "MESSAGE_CORRELATION_ID",
    "ENVIRONMENT_ID", "ENVIRONMENT_NAME", "ENVIRONMENT_CERTIFICATE", "ENVIRONMENT_PRIVATEKEY",
    "ENVIRONMENT_PUBLICKEY", "ENVIRONMENT_SECRETKEY", "ENVIRONMENT_KEYSTORE", "ENVIRONMENT_JWK",
    "APIPROXYGROUP_ID", "APIPROXYGROUP_NAME", "APIPROXY_ID", "APIPROXY_NAME", "APIMETHOD_ID",
    "APIMETHOD_NAME", "APIMETHOD_SOAP_ACTION", "APIMETHOD_HTTPMETHOD", "APIMETHOD_ENDPOINT",
    "APIMETHOD_BACKEND_HTTPMETHOD", "APIMETHOD_BACKEND_ENDPOINT",
    "DATETIME_YEAR", "DATETIME_MONTH", "DATETIME_DAY_OF_WEEK", "DATETIME_DAY_OF_MONTH", "DATETIME_HOUR",
    "DATETIME_MINUTE", "DATETIME_SECOND", "DATETIME_EPOCH_MILLIS", "DATETIME_FORMATTED_TEXT",
    "DATE_FORMATTED_TEXT", "TIME_FORMATTED_TEXT",
    "CREDENTIAL_USERNAME", "CREDENTIAL_EMAIL", "CREDENTIAL_FULLNAME", "CREDENTIAL_SECRETKEY",
    "CREDENTIAL_CERTIFICATE", "CREDENTIAL_PUBLICKEY", "CREDENTIAL_PRIVATEKEY", "CREDENTIAL_KEYSTORE",
    "CREDENTIAL_TRUSTSTORE", "CREDENTIAL_JWK_SIGNANDVALIDATION", "CREDENTIAL_JWK_ENCRYPTIONANDDECRYPTION",
]

# A value or its enum member. Strings, so that the enums are looked up by type checkers only.
HttpMethodValue: TypeAlias = "HttpMethodName | HttpMethod"
ApiProxySpecTypeValue: TypeAlias = "ApiProxySpecTypeName | ApiProxySpecType"
SharingTypeValue: TypeAlias = "SharingTypeName | SharingType"
CacheKeyTypeValue: TypeAlias = "CacheKeyTypeName | CacheKeyType"
CacheStorageTypeValue: TypeAlias = "CacheStorageTypeName | CacheStorageType"
CacheHandlingActionValue: TypeAlias = "CacheHandlingActionName | CacheHandlingAction"
RateLimitTimeIntervalValue: TypeAlias = "RateLimitTimeIntervalName | RateLimitTimeInterval"
CacheErrorHandlingTypeValue: TypeAlias = "CacheErrorHandlingTypeName | CacheErrorHandlingType"
IntervalWindowTypeValue: TypeAlias = "IntervalWindowTypeName | IntervalWindowType"
ExecutionOrderValue: TypeAlias = "ExecutionOrderName | ExecutionOrder"
ScriptTypeValue: TypeAlias = "ScriptTypeName | ScriptType"
WsaMustUnderstandValue: TypeAlias = "WsaMustUnderstandName | WsaMustUnderstand"
WsaVersionValue: TypeAlias = "WsaVersionName | WsaVersion"
VariableTypeValue: TypeAlias = "VariableTypeName | VariableType"
ParamTypeValue: TypeAlias = "ParamTypeName | ParamType"
MessageContentTypeValue: TypeAlias = "MessageContentTypeName | MessageContentType"
ContextValueValue: TypeAlias = "ContextValueName | ContextValue"

#: Every (literal, enum name) pair, for the test that keeps them equal.
PAIRS: dict[str, object] = {
    "HttpMethod": HttpMethodName, "CacheKeyType": CacheKeyTypeName, "CacheStorageType": CacheStorageTypeName,
    "CacheHandlingAction": CacheHandlingActionName, "RateLimitTimeInterval": RateLimitTimeIntervalName,
    "CacheErrorHandlingType": CacheErrorHandlingTypeName, "IntervalWindowType": IntervalWindowTypeName,
    "ExecutionOrder": ExecutionOrderName, "ScriptType": ScriptTypeName,
    "WsaMustUnderstand": WsaMustUnderstandName, "WsaVersion": WsaVersionName,
    "VariableType": VariableTypeName, "ParamType": ParamTypeName,
    "MessageContentType": MessageContentTypeName, "ContextValue": ContextValueName,
    "ApiProxySpecType": ApiProxySpecTypeName, "SharingType": SharingTypeName,
}

# Credentials and their access.
AccessTypeName = Literal["API_PROXY", "API_PROXY_GROUP"]
AccessTypeValue: TypeAlias = "AccessTypeName | AccessType"
PAIRS["AccessType"] = AccessTypeName
