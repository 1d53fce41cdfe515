"""Every option of every ``mtc`` command explains itself in ``--help``: a text of its own,
never empty and never only a pointer elsewhere ("As for mtc run", "See …"); the options of
where and how a run is computed say so in a sentence; ``--set`` names the command that lists
its keys."""

import re

import click
import pytest

from mtc_cli.cli import main

#: a help that only sends the reader elsewhere
POINTER = re.compile(r"^\s*(as (for|in)|see|same as)\b", re.IGNORECASE)
#: the options a first reading of ``--help`` could not place (issue 49)
EXPLAINED = ("--seed", "--train-labels", "--shard", "--backend", "--scheduler", "--cluster")


def _options(command: click.Command) -> dict[str, click.Option]:
    """Each option of ``command`` (its ``--help`` included) by its longest flag."""
    ctx = click.Context(command, info_name=command.name)
    return {max(p.opts, key=len): p for p in command.get_params(ctx)
            if isinstance(p, click.Option)}


COMMANDS = {"mtc": main, **{f"mtc {name}": c for name, c in main.commands.items()}}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_option_has_a_help_of_its_own(name):
    options = _options(COMMANDS[name])
    assert "--help" in options
    for flag, option in options.items():
        text = " ".join((option.help or "").split())
        assert text, f"{name} {flag}: no help"
        assert not POINTER.match(text), f"{name} {flag}: only points elsewhere: {text!r}"
        assert len(text.split()) >= 3, f"{name} {flag}: {text!r}"


def test_the_options_of_a_run_s_machinery_are_sentences():
    for name in ("mtc select", "mtc run"):
        options = _options(COMMANDS[name])
        for flag in EXPLAINED:
            if flag not in options:
                assert name == "mtc run" and flag in ("--seed", "--train-labels"), flag
                continue
            text = re.sub(r"\s*\[default: [^]]*\]\s*$", "", " ".join(options[flag].help.split()))
            assert text[0].isupper() and text.endswith(".") and len(text.split()) >= 8, \
                f"{name} {flag}: {text!r}"


def test_set_names_the_command_that_lists_its_keys():
    assert "`mtc keys select`" in _options(main.commands["select"])["--set"].help
    assert "`mtc keys EXPERIMENT`" in _options(main.commands["run"])["--set"].help


def test_every_help_text_reaches_the_screen():
    """click prints each option's own text (nothing hidden)."""
    for name, command in COMMANDS.items():
        shown = " ".join(command.get_help(click.Context(command, info_name=name)).split())
        for option in _options(command).values():
            assert not option.hidden
            assert " ".join(option.help.split())[:30] in shown, (name, option.opts)
