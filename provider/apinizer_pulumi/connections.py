"""The typed settings of every connection type, one class per type: ``apinizer_pulumi.connections.<Type>``.

    import apinizer_pulumi as apinizer

    apinizer.Connection("audit-log", project_name="Demo", name="audit-log",
                        settings=apinizer.connections.Kafka(
                            topic_name="audit",
                            properties_map={"bootstrap.servers": {"value": "kafka:9092", "type": "STRING"},
                                            ...}))

Each class carries its type string (``connection_type``) and holds the type's own fields; the
fields every connection shares are the ``Connection`` resource's inputs. Generated from the models
by ``scripts/gen_policy_args.py`` (the reference: docs/resources/connection-types.md).
"""

from .resources._connection_args import *  # noqa: F403
from .resources._connection_args import CONNECTION_ARGS, __all__  # noqa: F401
