"""``--check``'s comparison of the kinds beyond endpoints, on program sources alone (no gateway)."""

from __future__ import annotations

import textwrap

from apinizer_pulumi.generate import compare_resources, declared_resources

GENERATED = textwrap.dedent("""
    import apinizer_pulumi as apinizer

    policies = {
        "demo-orders-policy-office": apinizer.Policy(
            "demo-orders-policy-office",
            project_name="Demo",
            api_proxy_name="Orders",
            name="office",
            pipeline="REQUEST",
            order=1,
            settings=apinizer.policies.WhiteIp(ip_list=["10.0.0.0/8"]),
            adopt=True,
        ),
    }
    variables = {
        "demo-greeting": apinizer.EnvironmentVariable(
            "demo-greeting", project_name="Demo", name="GREETING", global_value="hello", adopt=True,
        ),
    }
""")


def drift_lines(program: str, generated: str = GENERATED) -> list[str]:
    drift = compare_resources(declared_resources(program), declared_resources(generated), "Demo", ["Orders"])
    return drift.lines("program.py")


def test_a_hand_written_program_with_defaults_and_options_spelled_out_is_in_sync() -> None:
    # What generate leaves out because it is the default, or a Pulumi-side option, is no drift.
    program = textwrap.dedent("""
        import apinizer_pulumi as apinizer

        apinizer.Policy("office", project_name="Demo", api_proxy_name="Orders", name="office",
                        pipeline="REQUEST", target_scope="ALL", active=True, deploy_to=["test"],
                        settings={"ip_list": ["10.0.0.0/8"]})
        apinizer.EnvironmentVariable("greeting", project_name="Demo", name="GREETING",
                                     global_value="hello", secret=False)
    """)
    assert drift_lines(program) == []


def test_a_changed_value_or_default_is_drift_named_to_the_field() -> None:
    program = GENERATED.replace('global_value="hello"', 'global_value="bye"').replace("order=1", "order=2")
    program = program.replace('pipeline="REQUEST",', 'pipeline="REQUEST", active=False,')
    assert drift_lines(program) == [
        "~ EnvironmentVariable Demo/GREETING (program.py:17):",
        "    global_value: declared 'bye', gateway has 'hello'",
        "~ Policy Demo/Orders/office (program.py:5):",
        "    active: declared False, gateway has True",
        "    order: declared 2, gateway has 1",
    ]
