"""WS-Addressing headers on the `Subtract` operation of the SOAP proxy `Calculator`.

SOAP endpoints come from the service description, so they are not created here: the operation
already exists, and `EndpointWsa` only sets its WS-Addressing settings (destroy turns them off again).
The root project of this repository does the same for `Add` with the defaults the gateway can fill in.
"""

import pulumi

import apinizer_pulumi as apinizer

apinizer.EndpointWsa(
    "calculator-subtract-wsa",
    project_name="Demo",
    api_proxy_name="Calculator",
    endpoint_name="Subtract",
    endpoint_http_method="POST",
    wsa_settings=apinizer.WsaSettingsArgs(
        wsa_enabled=True,
        # The 2004/08 namespace, for a legacy backend; mustUnderstand makes it refuse what it can't honour.
        wsa_version="V200408",
        wsa_must_understand="TRUE",
        # Explicit Action and To instead of the method definition's SOAP action and the target address.
        wsa_add_default_action=False,
        wsa_action="http://tempuri.org/Subtract",
        wsa_add_default_to=False,
        wsa_to="https://calculator.example.com/calculator.asmx",
        wsa_from="urn:example:billing-service",
        wsa_reply_to="https://callbacks.example.com/calculator/replies",
        wsa_fault_to="https://callbacks.example.com/calculator/faults",
        # A fresh urn:uuid: MessageID per request.
        wsa_generate_message_id=True,
    ),
)

pulumi.export("operation", "Calculator POST Subtract")
