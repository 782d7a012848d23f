"""The examples in the rules engine's docstrings run, and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import rules

MODULES = sorted(info.name for info in pkgutil.walk_packages(rules.__path__, "rules."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_examples_are_found() -> None:
    attempted = sum(doctest.testmod(importlib.import_module(name)).attempted for name in MODULES)
    assert attempted >= 15  # so that examples are not dropped unnoticed
