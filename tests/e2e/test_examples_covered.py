"""Every example under examples/ has a README with the blocks ``_examples.py`` runs, and an e2e module of its
own, ``test_example_<name>.py``, that runs them under the CLI."""

from __future__ import annotations

from pathlib import Path

from ._examples import EXAMPLES, section_block
from .conftest import ROOT


def test_every_example_has_a_readme_and_a_module_that_runs_it() -> None:
    assert EXAMPLES
    for name in EXAMPLES:
        readme = (ROOT / "examples" / name / "README.md").read_text()
        for heading in ("Run it against the emulator", "Tear it down"):
            assert section_block(readme, heading), f"examples/{name}/README.md has no '{heading}' block"
        module = Path(__file__).with_name(f"test_example_{name.replace('-', '_')}.py")
        assert module.is_file(), f"examples/{name} has no e2e test: add tests/e2e/{module.name}"
        assert f'Example("{name}",' in module.read_text(), f"{module.name} runs another example"
