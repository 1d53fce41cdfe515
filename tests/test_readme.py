"""The README and docs/: their Python examples run as written, the table of criteria is the
registry's, the README stays an entry point of at most 300 lines, and every relative link
(markdown or image) points to a file — and a heading, where it names one — that exists."""

import re
from collections import Counter
from pathlib import Path

from mtc_cli.selection.catalog import markdown_table

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
NOTES = sorted((ROOT / "experiments").glob("*/NOTES.md"))
PAGES = [README, *DOCS]
FENCE = re.compile(r"^```.*?^```", flags=re.S | re.M)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def test_readme_python_blocks_run_as_written():
    """Every ```python block of README.md and docs/*.md."""
    blocks = [(page, block) for page in PAGES
              for block in re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S)]
    assert len(blocks) >= 2
    for page, block in blocks:
        exec(compile(block, str(page.relative_to(ROOT)), "exec"), {"__name__": "readme"})


def test_readme_criteria_table_is_the_registry():
    """The criteria table is in whichever page holds it (docs/select.md today)."""
    table = markdown_table()
    assert [p.name for p in PAGES if table in p.read_text()] == ["select.md"]


def test_the_options_table_is_the_declarations():
    """docs/select.md's table of options is made from their one declaration."""
    from mtc_cli.selection.options import markdown_table as options_table

    assert [p.name for p in PAGES if options_table() in p.read_text()] == ["select.md"]


def test_readme_is_an_entry_point_that_links_every_doc():
    text = README.read_text()
    assert len(text.splitlines()) <= 300
    assert DOCS, "docs/*.md missing"
    for doc in DOCS:
        assert f"](docs/{doc.name})" in text, doc.name
        assert doc.read_text().splitlines()[2].startswith("[← README](../README.md)"), doc.name


def test_readme_states_the_reproduction_tables_count_line():
    """The README quotes the count line of the generated reproduction table word for word."""
    blocks = [re.search(r"^<!-- targets:start -->\n(.*)$", p.read_text(), flags=re.M)
              for p in DOCS]
    counts = [b.group(1) for b in blocks if b]
    assert len(counts) == 1 and counts[0].startswith(tuple("0123456789"))
    assert f"> {counts[0]}" in README.read_text()


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    seen, anchors = Counter(), set()
    for heading in re.findall(r"^#+ (.*)$", FENCE.sub("", page.read_text()), flags=re.M):
        slug = _slug(heading)
        anchors.add(slug if not seen[slug] else f"{slug}-{seen[slug]}")
        seen[slug] += 1
    return anchors


def test_every_relative_link_points_to_an_existing_file():
    checked, broken = 0, []
    for page in [*PAGES, *NOTES]:
        text = re.sub(r"`[^`\n]*`", "", FENCE.sub("", page.read_text()))
        for target in LINK.findall(text):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            checked += 1
            if not dest.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert checked >= 30
    assert not broken, broken


def test_every_notes_file_is_shown_and_every_defined_number_used():
    """Each experiments/*/NOTES.md is copied into a doc, each number and table of
    docs/numbers/*.yaml and experiments/*/numbers.yaml appears in a page: no dead definition."""
    from mtc_cli.show.numbers import BLOCK, SPAN, registry

    texts = [p.read_text() for p in [*PAGES, *NOTES]]
    shown = {(m.group(1), m.group(2)) for t in texts for m in BLOCK.finditer(t)}
    assert NOTES and {("notes", n.parent.name) for n in NOTES} <= shown
    used = {m.group(1) for t in texts for m in SPAN.finditer(t)} | {n for k, n in shown
                                                                     if k == "table"}
    assert not set(registry(ROOT)) - used, sorted(set(registry(ROOT)) - used)
