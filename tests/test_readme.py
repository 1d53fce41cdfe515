"""The README's Python examples run as written, and its table of criteria is the registry's."""

import re
from pathlib import Path

from mtc_cli.selection.criteria import markdown_table

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_readme_python_blocks_run_as_written():
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {"__name__": "readme"})


def test_readme_criteria_table_is_the_registry():
    assert markdown_table() in README
