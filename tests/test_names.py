"""pipeline.core.names: placeholders compared as names are, and names that name nobody."""

from __future__ import annotations

import pytest

from pipeline.core.names import PLACEHOLDER_NAMES, name_key, names_nobody, placeholder_keys

DEFAULT = placeholder_keys(PLACEHOLDER_NAMES)


@pytest.mark.parametrize(
    "name", ["Black", "black", "BLACK", "\uff22\uff4c\uff41\uff43\uff4b", " Black\u3000", "ＷＨＩＴＥ"]
)
def test_a_placeholder_matches_in_any_case_width_and_spacing(name: str) -> None:
    assert names_nobody(name, DEFAULT)


@pytest.mark.parametrize(
    "name", ["黑", "白方", "黑棋", "先手", "後手", "后手", "흑", "백", "?", "-", "UNKNOWN", "Anonymous"]
)
def test_every_kind_of_default_placeholder_names_nobody(name: str) -> None:
    assert names_nobody(name, DEFAULT)


@pytest.mark.parametrize("name", ["Blackie", "Black Cat", "黑猫", "白石", "李?", "--help"])
def test_a_name_that_contains_a_placeholder_names_somebody(name: str) -> None:
    assert not names_nobody(name, DEFAULT)


def test_an_undecodable_name_names_nobody_with_no_placeholders() -> None:
    assert names_nobody("李\ufffd", frozenset())


def test_a_placeholder_list_of_ones_own_replaces_the_default() -> None:
    mine = placeholder_keys(["Nobody"])
    assert (names_nobody("nobody", mine), names_nobody("Black", mine)) == (True, False)


def test_name_key_folds_width_case_and_spaces() -> None:
    assert name_key("  Ｌｅｅ\u3000  SEDOL ") == "lee sedol"
