"""The typed settings of every policy type, one class per type: ``apinizer_pulumi.policies.<Type>``.

    import apinizer_pulumi as apinizer

    apinizer.Policy("allow-office", project_name="Demo", api_proxy_name="PetStore", name="allow-office",
                    pipeline="REQUEST", order=1,
                    settings=apinizer.policies.WhiteIp(ip_list=["10.0.0.0/8"]))

Each class carries its type string (``policy_type``) and holds the type's own fields; the fields
every policy shares are the ``Policy`` resource's inputs. Generated from the models by
``scripts/gen_policy_args.py`` (the reference: docs/policies/reference.md).
"""

from .resources._policy_args import *  # noqa: F403
from .resources._policy_args import POLICY_ARGS, __all__  # noqa: F401
