"""The endpoint list of the `Premium` rate-limit control list (RLCL), declared as a whole.

`RlclEndpoints` owns the list it declares: an up replaces the RLCL's endpoint list with exactly these
entries, and destroy removes exactly them. One resource per RLCL, so two stacks never share a list.
"""

import pulumi

import apinizer_pulumi as apinizer

apinizer.RlclEndpoints(
    "premium-rate-limits",
    project_name="Demo",
    rlcl_name="Premium",
    endpoints=[
        # One endpoint: 20 requests a second per API key, in fixed one-second windows.
        apinizer.EndpointRateLimitArgs(
            api_proxy_name="PetStore",
            endpoint_name="/pets",
            endpoint_http_method="GET",
            permitted_message_count=20,
            time_interval_period_length=1,
            time_interval="ONE_SECOND",
            time_interval_window_type="FIXED",
            cache_connection_timeout_in_seconds=2,
            cache_error_handling_type="CONTINUE",
            target_variable=apinizer.VariableArgs(name="api-key", type="HEADER", header_name="X-Api-Key"),
            show_rate_limit_statistics_in_response_header=True,
        ),
        # ALL endpoints of a proxy: a daily quota per authenticated user, over a sliding window.
        apinizer.EndpointRateLimitArgs(
            api_proxy_name="Orders",
            endpoint_name="ALL",
            endpoint_http_method="ALL",
            permitted_message_count=50_000,
            time_interval_period_length=1,
            time_interval="ONE_DAY",
            time_interval_window_type="SLIDING",
            cache_connection_timeout_in_seconds=3,
            cache_error_handling_type="FAIL",
            target_variable=apinizer.VariableArgs(
                name="user", type="CONTEXT_VALUES", context_value="CREDENTIAL_USERNAME"
            ),
        ),
        # A client identity computed by a script (a rate-limit variable of type CUSTOM needs one).
        apinizer.EndpointRateLimitArgs(
            api_proxy_name="Calculator",
            endpoint_name="Add",
            endpoint_http_method="POST",
            permitted_message_count=300,
            time_interval_period_length=5,
            time_interval="ONE_MINUTE",
            time_interval_window_type="FIXED",
            cache_connection_timeout_in_seconds=3,
            cache_error_handling_type="CONTINUE",
            target_variable=apinizer.VariableArgs(
                name="tenant-or-anonymous",
                type="CUSTOM",
                init_with_script=True,
                script_language="GROOVY",
                script_body="return request.getHeader('X-Tenant-Id') ?: 'anonymous'",
            ),
        ),
        # A rule kept in place but switched off, with a fixed identity instead of a variable.
        apinizer.EndpointRateLimitArgs(
            api_proxy_name="Calculator",
            endpoint_name="Subtract",
            endpoint_http_method="POST",
            permitted_message_count=1_000,
            time_interval_period_length=1,
            time_interval="ONE_HOUR",
            time_interval_window_type="FIXED",
            cache_connection_timeout_in_seconds=3,
            cache_error_handling_type="CONTINUE",
            target_identity_value="batch-jobs",
            enabled=False,
        ),
    ],
)

pulumi.export("rlcl", "Premium")
