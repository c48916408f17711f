import pytest

# The helper modules' asserts, rewritten as the test modules' are, so that a failure shows its values.
pytest.register_assert_rewrite(f"{__name__}._examples")
