"""The roster: players, name resolution through aliases, membership, and every mistake in the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.config import ConfigError
from pipeline.config.roster import Player, Roster, load_roster

ROOT = Path(__file__).resolve().parent.parent


def _roster(tmp_path: Path, content: str) -> Roster:
    return load_roster(_write(tmp_path, content))


def _write(tmp_path: Path, content: str) -> Path:
    path = tmp_path / "roster.toml"
    path.write_text(content, encoding="utf-8")
    return path


def _error(tmp_path: Path, content: str) -> str:
    path = _write(tmp_path, content)
    with pytest.raises(ConfigError) as info:
        load_roster(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    return message


YUYAN = '[[player]]\nname = "羽焰"\naliases = ["YuYan"]\nrank = "1d"\n'


def test_example_roster_is_valid() -> None:
    roster = load_roster(ROOT / "config" / "examples" / "roster.toml")
    assert roster.configured and roster.get("yuyan") is not None


def test_player_keys_are_read(tmp_path: Path) -> None:
    content = YUYAN + "member = false\nrating = 120.5\nfixed = true\n"
    player = _roster(tmp_path, content).players[0]
    assert player == Player("羽焰", ("YuYan",), "1d", member=False, rating=120.5, fixed=True)


def test_player_defaults(tmp_path: Path) -> None:
    assert _roster(tmp_path, '[[player]]\nname = "fish"\n').players[0] == Player("fish")


def test_players_keep_file_order(tmp_path: Path) -> None:
    roster = _roster(tmp_path, '[[player]]\nname = "b"\n[[player]]\nname = "a"\n')
    assert [p.name for p in roster.players] == ["b", "a"]


def test_rank_is_stored_in_canonical_form(tmp_path: Path) -> None:
    assert _roster(tmp_path, '[[player]]\nname = "x"\nrank = "五段"\n').players[0].rank == "5d"


def test_integer_rating_becomes_a_float(tmp_path: Path) -> None:
    rating = _roster(tmp_path, '[[player]]\nname = "x"\nrating = 100\n').players[0].rating
    assert rating == 100.0 and isinstance(rating, float)


def test_canonical_name_is_nfkc_folded_and_stripped(tmp_path: Path) -> None:
    assert _roster(tmp_path, '[[player]]\nname = "\u3000ｆｉｓｈ "\n').players[0].name == "fish"


def test_alias_resolves_to_the_canonical_name(tmp_path: Path) -> None:
    assert _roster(tmp_path, YUYAN).resolve("YuYan") == "羽焰"


def test_resolution_ignores_case_and_width(tmp_path: Path) -> None:
    assert _roster(tmp_path, YUYAN).resolve(" ＹＵＹＡＮ ") == "羽焰"


def test_canonical_name_resolves_to_itself(tmp_path: Path) -> None:
    assert _roster(tmp_path, YUYAN).resolve("羽焰") == "羽焰"


def test_unknown_name_resolves_to_itself_folded_and_stripped(tmp_path: Path) -> None:
    assert _roster(tmp_path, YUYAN).resolve("  Ｆｉｓｈ\u3000 ") == "Fish"


def test_get_finds_a_player_by_any_spelling(tmp_path: Path) -> None:
    player = _roster(tmp_path, YUYAN).get("yuyan")
    assert player is not None and player.name == "羽焰"


def test_get_unknown_name_is_none(tmp_path: Path) -> None:
    assert _roster(tmp_path, YUYAN).get("fish") is None


def test_no_roster_is_not_configured() -> None:
    assert not Roster().configured


def test_empty_roster_file_is_not_configured(tmp_path: Path) -> None:
    assert not _roster(tmp_path, "").configured


def test_everyone_is_a_member_without_a_roster() -> None:
    assert Roster().is_member("anyone")


def test_listed_member_is_a_member(tmp_path: Path) -> None:
    assert _roster(tmp_path, YUYAN).is_member("yuyan")


def test_player_marked_not_member_is_not_a_member(tmp_path: Path) -> None:
    assert not _roster(tmp_path, YUYAN + "member = false\n").is_member("羽焰")


def test_unlisted_player_is_not_a_member(tmp_path: Path) -> None:
    assert not _roster(tmp_path, YUYAN).is_member("fish")


def test_roster_built_with_a_shared_spelling_raises_value_error() -> None:
    with pytest.raises(ValueError, match="'YY' names both 'a' and 'b'"):
        Roster((Player("a", ("yy",)), Player("b", ("YY",))))


def test_duplicate_name_is_an_error(tmp_path: Path) -> None:
    message = _error(tmp_path, '[[player]]\nname = "Fish"\n[[player]]\nname = "fish"\n')
    assert "[[player]] #2 (fish) name must be unique (player #1 is 'Fish'), got 'fish'" in message


def test_alias_naming_two_players_is_an_error(tmp_path: Path) -> None:
    message = _error(tmp_path, YUYAN + '[[player]]\nname = "二黑"\naliases = ["yuyan"]\n')
    assert "[[player]] #2 (二黑) aliases must be spellings no other player uses ('羽焰' has it)" in message
    assert "got 'yuyan'" in message


def test_alias_equal_to_another_players_name_is_an_error(tmp_path: Path) -> None:
    message = _error(tmp_path, YUYAN + '[[player]]\nname = "二黑"\naliases = ["羽焰"]\n')
    assert "[[player]] #2 (二黑) aliases must be" in message


def test_bad_rank_names_the_player_and_the_value(tmp_path: Path) -> None:
    message = _error(tmp_path, '[[player]]\nname = "fish"\nrank = "strong"\n')
    assert "[[player]] #1 (fish) rank must be a rank such as 5k, 1d" in message and "got 'strong'" in message


@pytest.mark.parametrize(
    ("line", "place", "expected"),
    [
        ('aliases = "yy"', "aliases", "a list of non-empty strings, got 'yy'"),
        ('aliases = [""]', "aliases", "a list of non-empty strings, got ['']"),
        ("rank = 3", "rank", "a rank such as"),
        ('member = "yes"', "member", "of type boolean (true or false), got 'yes'"),
        (
            'rating = "100"',
            "rating",
            "a number, or a table of numbers by rule set or scale, e.g. { club = 100, gor = 2100 }, "
            "got '100'",
        ),
        (
            "rating = true",
            "rating",
            "a number, or a table of numbers by rule set or scale, e.g. { club = 100, gor = 2100 }, got True",
        ),
        ("fixed = 1", "fixed", "of type boolean (true or false), got 1"),
    ],
)
def test_wrong_type_names_file_player_key_and_expectation(
    line: str, place: str, expected: str, tmp_path: Path
) -> None:
    message = _error(tmp_path, f'[[player]]\nname = "fish"\n{line}\n')
    assert f"[[player]] #1 (fish) {place} must be {expected}" in message


def test_missing_name_is_an_error(tmp_path: Path) -> None:
    message = _error(tmp_path, '[[player]]\nrank = "1d"\n')
    assert "[[player]] #1 name must be a non-empty string, got nothing" in message


def test_name_that_is_not_a_string_is_an_error(tmp_path: Path) -> None:
    assert "[[player]] #1 name must be a non-empty string, got 7" in _error(
        tmp_path, "[[player]]\nname = 7\n"
    )


def test_unknown_player_key_is_named_with_the_known_keys(tmp_path: Path) -> None:
    message = _error(tmp_path, '[[player]]\nname = "fish"\nalias = ["f"]\n')
    assert "[[player]] #1 (fish) 'alias' is not a known key" in message
    assert "aliases, fixed, member, name, rank, rating" in message


def test_unknown_top_level_key_is_an_error(tmp_path: Path) -> None:
    message = _error(tmp_path, '[[players]]\nname = "fish"\n')
    assert "'players' is not a known key; expected one of: player" in message


def test_player_that_is_not_an_array_of_tables_is_an_error(tmp_path: Path) -> None:
    assert "player must be an array of tables (write [[player]] sections), got 3" in _error(
        tmp_path, "player = 3\n"
    )


def test_missing_roster_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="configuration file not found"):
        load_roster(tmp_path / "none.toml")
