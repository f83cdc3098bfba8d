"""The events file: events, EV matching, stages, awards, and every mistake in the file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from pipeline.config import ConfigError
from pipeline.config.events import DEFAULT_QUALIFIER_ROUNDS, Award, Event, Events, load_events

ROOT = Path(__file__).resolve().parent.parent
TEAM = '[[event]]\nname = "飞扬-弈林对抗赛"\nmatch = ["飞扬对弈林*"]\nkind = "team_match"\n'
OPEN = '[[event]]\nname = "TOM Open"\nkind = "server_qualifiers"\n'


def _write(tmp_path: Path, content: str) -> Path:
    path = tmp_path / "events.toml"
    path.write_text(content, encoding="utf-8")
    return path


def _events(tmp_path: Path, content: str) -> Events:
    return load_events(_write(tmp_path, content))


def _error(tmp_path: Path, content: str) -> str:
    path = _write(tmp_path, content)
    with pytest.raises(ConfigError) as info:
        load_events(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    return message


def test_example_events_file_is_valid() -> None:
    events = load_events(ROOT / "config" / "examples" / "events.toml")
    assert events.events and any(event.awards for event in events.events)


def test_event_keys_are_read(tmp_path: Path) -> None:
    content = TEAM + 'class = "B"\nchampion = "YuYan"\nrunner_up = "二黑"\nends = 2024-06-30\n'
    event = _events(tmp_path, content).events[0]
    assert event == Event(
        "飞扬-弈林对抗赛",
        ("飞扬对弈林*",),
        "team_match",
        klass="B",
        champion="YuYan",
        runner_up="二黑",
        ends=dt.date(2024, 6, 30),
    )


def test_event_defaults(tmp_path: Path) -> None:
    event = _events(tmp_path, OPEN).events[0]
    assert (event.klass, event.champion, event.runner_up, event.ends, event.awards) == (
        None,
        None,
        None,
        None,
        (),
    )
    assert event.qualifier_rounds == DEFAULT_QUALIFIER_ROUNDS


def test_default_pattern_is_the_name(tmp_path: Path) -> None:
    event = _events(tmp_path, OPEN).events[0]
    assert _events(tmp_path, OPEN).match("tom open") == event


def test_default_pattern_matches_glob_characters_in_the_name_literally(tmp_path: Path) -> None:
    events = _events(tmp_path, '[[event]]\nname = "Cup [2024] *"\nkind = "other"\n')
    assert events.match("Cup [2024] *") is not None and events.match("Cup 2 x") is None


def test_match_uses_fnmatch_patterns(tmp_path: Path) -> None:
    assert _events(tmp_path, TEAM).match("飞扬对弈林 第3轮") is not None


def test_match_ignores_case_and_width(tmp_path: Path) -> None:
    events = _events(tmp_path, '[[event]]\nname = "x"\nmatch = ["tom*cup"]\nkind = "other"\n')
    assert events.match("ＴＯＭ Summer CUP") is not None


def test_match_picks_the_first_event_in_file_order(tmp_path: Path) -> None:
    content = '[[event]]\nname = "a"\nmatch = ["*"]\nkind = "other"\n' + TEAM
    event = _events(tmp_path, content).match("飞扬对弈林")
    assert event is not None and event.name == "a"


@pytest.mark.parametrize("ev", [None, "", "  ", "another event"])
def test_no_or_unmatched_ev_matches_nothing(ev: str | None, tmp_path: Path) -> None:
    assert _events(tmp_path, TEAM).match(ev) is None


def test_no_events_match_nothing() -> None:
    assert Events().match("anything") is None


def test_get_finds_an_event_by_name(tmp_path: Path) -> None:
    event = _events(tmp_path, OPEN).get("tom open")
    assert event is not None and event.name == "TOM Open"


def test_get_unknown_name_is_none(tmp_path: Path) -> None:
    assert _events(tmp_path, OPEN).get("other") is None


@pytest.mark.parametrize("round_", ["外围赛第2轮", "预选 1", "Qualification R2", "PRELIMINARY"])
def test_default_qualifier_rounds_mean_the_qualifying_stage(round_: str, tmp_path: Path) -> None:
    events = _events(tmp_path, OPEN)
    assert events.stage(events.events[0], round_) == "qualifier"


@pytest.mark.parametrize("round_", [None, "", "Final", "第3轮"])
def test_other_rounds_are_the_main_stage(round_: str | None, tmp_path: Path) -> None:
    events = _events(tmp_path, OPEN)
    assert events.stage(events.events[0], round_) == "main"


def test_configured_qualifier_rounds_replace_the_default(tmp_path: Path) -> None:
    events = _events(tmp_path, OPEN + 'qualifier_rounds = ["round robin*"]\n')
    event = events.events[0]
    assert (events.stage(event, "Round Robin 3"), events.stage(event, "qualif 1")) == ("qualifier", "main")


@pytest.mark.parametrize(
    ("kind", "inter_club"),
    [
        ("team_match", True),
        ("arena", True),
        ("server_qualifiers", False),
        ("server_open", False),
        ("other", False),
    ],
)
def test_only_team_matches_and_arenas_are_inter_club(kind: str, inter_club: bool, tmp_path: Path) -> None:
    event = _events(tmp_path, f'[[event]]\nname = "e"\nkind = "{kind}"\n').events[0]
    assert event.inter_club is inter_club


def test_awards_are_read_with_their_event(tmp_path: Path) -> None:
    content = (
        OPEN + '[[event.award]]\nplayer = "凝兰"\ndate = 2024-06-30\npoints = 50\nrank = "二段"\nnote = "n"\n'
    )
    award = _events(tmp_path, content).events[0].awards[0]
    assert award == Award("凝兰", dt.date(2024, 6, 30), 50.0, "2d", "n", "TOM Open")


def test_award_defaults(tmp_path: Path) -> None:
    award = _events(tmp_path, OPEN + '[[event.award]]\nplayer = "p"\ndate = 2024-01-02\n').events[0].awards[0]
    assert (award.points, award.rank, award.note) == (None, None, "")


def test_duplicate_event_name_is_an_error(tmp_path: Path) -> None:
    message = _error(tmp_path, OPEN + OPEN.replace("TOM Open", "tom open"))
    assert "[[event]] #2 (tom open) name must be unique (event #1 has it), got 'tom open'" in message


@pytest.mark.parametrize(
    ("line", "place", "expected"),
    [
        (
            'kind = "league"',
            "kind",
            "one of 'team_match', 'arena', 'server_qualifiers', 'server_open', 'other'",
        ),
        ('class = "D"', "class", "one of 'A', 'B', 'C', got 'D'"),
        ('class = "a"', "class", "one of 'A', 'B', 'C', got 'a'"),
        (
            'ends = "2024-06-30"',
            "ends",
            "a TOML date such as 2024-06-30 (no quotes, no time), got '2024-06-30'",
        ),
        ("ends = 2024-06-30T12:00:00", "ends", "a TOML date such as 2024-06-30"),
        ('match = "x*"', "match", "a list of non-empty strings (fnmatch-style patterns), got 'x*'"),
        ('match = [""]', "match", "a list of non-empty strings"),
        ("qualifier_rounds = [1]", "qualifier_rounds", "a list of non-empty strings"),
        ("champion = 7", "champion", "a non-empty string, got 7"),
        ('runner_up = ""', "runner_up", "a non-empty string, got ''"),
    ],
)
def test_bad_event_value_names_file_event_key_and_expectation(
    line: str, place: str, expected: str, tmp_path: Path
) -> None:
    content = (
        '[[event]]\nname = "e"\n' + ("" if line.startswith("kind") else 'kind = "other"\n') + line + "\n"
    )
    assert f"[[event]] #1 (e) {place} must be {expected}" in _error(tmp_path, content)


def test_missing_kind_is_an_error(tmp_path: Path) -> None:
    message = _error(tmp_path, '[[event]]\nname = "e"\n')
    assert "[[event]] #1 (e) kind must be one of 'team_match'" in message and "got nothing" in message


def test_missing_name_is_an_error(tmp_path: Path) -> None:
    message = _error(tmp_path, '[[event]]\nkind = "other"\n')
    assert "[[event]] #1 name must be a non-empty string, got nothing" in message


@pytest.mark.parametrize(
    ("lines", "place", "expected"),
    [
        ("date = 2024-06-30", "player", "a non-empty string, got nothing"),
        ('player = "p"', "date", "a TOML date such as 2024-06-30"),
        (
            'player = "p"\ndate = "2024-06-30"',
            "date",
            "a TOML date such as 2024-06-30 (no quotes, no time), got '2024",
        ),
        ('player = "p"\ndate = 2024-06-30\npoints = "50"', "points", "a number, got '50'"),
        ('player = "p"\ndate = 2024-06-30\nrank = "strong"', "rank", "a rank such as 5k, 1d"),
        ('player = "p"\ndate = 2024-06-30\nnote = 3', "note", "of type string, got 3"),
    ],
)
def test_bad_award_value_names_file_event_award_key_and_expectation(
    lines: str, place: str, expected: str, tmp_path: Path
) -> None:
    message = _error(tmp_path, OPEN + f"[[event.award]]\n{lines}\n")
    assert f"[[event]] #1 (TOM Open) [[event.award]] #1 {place} must be {expected}" in message


def test_unknown_event_key_is_named_with_the_known_keys(tmp_path: Path) -> None:
    message = _error(tmp_path, OPEN + 'winner = "x"\n')
    assert "[[event]] #1 (TOM Open) 'winner' is not a known key" in message
    known = "award, champion, class, ends, group, kind, match, name, qualifier_rounds, rounds, runner_up"
    assert known in message


def test_unknown_award_key_is_named_with_the_known_keys(tmp_path: Path) -> None:
    message = _error(tmp_path, OPEN + '[[event.award]]\nplayer = "p"\ndate = 2024-06-30\nwhy = "x"\n')
    assert (
        "[[event.award]] #1 'why' is not a known key; expected one of: date, note, player, points, rank"
        in message
    )


def test_unknown_top_level_key_is_an_error(tmp_path: Path) -> None:
    assert "'events' is not a known key; expected one of: event" in _error(
        tmp_path, "[[events]]\nname = 'x'\n"
    )


def test_award_that_is_not_an_array_of_tables_is_an_error(tmp_path: Path) -> None:
    message = _error(tmp_path, OPEN + "award = 1\n")
    assert (
        "[[event]] #1 (TOM Open) award must be an array of tables (write [[event.award]] sections)" in message
    )


def test_missing_events_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="configuration file not found"):
        load_events(tmp_path / "none.toml")
