"""The run's configuration file: defaults, the [run], [ingest] and [validity] sections, and every mistake."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline import rules
from pipeline.config import DEFAULT_PATH, ConfigError, RunConfig, load
from pipeline.core.activity import Span

ROOT = Path(__file__).resolve().parent.parent


def _write(tmp_path: Path, content: str, name: str = "ratings.toml") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    return path


def _error(path: Path) -> str:
    with pytest.raises(ConfigError) as info:
        load(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    return message


def test_no_file_anywhere_gives_the_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert load(None) == RunConfig()
    assert load(None).roster_path is None and load(None).source is None


def test_default_path_is_read_when_it_exists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, '[run]\nrule_set = "club"\n', str(DEFAULT_PATH))
    config = load(None)
    assert config.source == DEFAULT_PATH and config.rule_set == "club"


def test_empty_file_leaves_rule_set_settings_to_the_rule_set(tmp_path: Path) -> None:
    config = load(_write(tmp_path, ""))
    assert (config.rule_set, config.period, config.validity) == (None, None, {})


def test_source_is_the_file_read(tmp_path: Path) -> None:
    path = _write(tmp_path, "")
    assert load(path).source == path


def test_run_section_gives_rule_set_and_period(tmp_path: Path) -> None:
    config = load(_write(tmp_path, '[run]\nrule_set = "hkga"\nperiod = "year"\n'))
    assert (config.rule_set, config.period) == ("hkga", "year")


@pytest.mark.parametrize(("written", "name"), [("HKGA", "hkga"), (" Club ", "club"), ("CGA_Dan", "cga-dan")])
def test_a_rule_set_name_in_another_case_or_with_underscores_is_the_registrys(
    written: str, name: str, tmp_path: Path
) -> None:
    config = load(_write(tmp_path, f'[run]\nrule_set = "{written}"\n'))
    assert config.rule_set == name and name in rules.names()


def test_rules_flags_are_spelled_as_the_registry_does() -> None:
    from pipeline.cli.common import rules_spelling

    assert rules_spelling("club,HKGA, egf2021") == "club,hkga,egf2021"


@pytest.mark.parametrize("period", ["month", "quarter", "half", "year"])
def test_every_period_kind_is_accepted(period: str, tmp_path: Path) -> None:
    assert load(_write(tmp_path, f'[run]\nperiod = "{period}"\n')).period == period


def test_ingest_section_keeps_its_meaning(tmp_path: Path) -> None:
    content = '[ingest]\nraw = "r"\nout = "o"\nworkers = 3\nspeed_threshold_minutes = 45\n'
    config = load(_write(tmp_path, content))
    assert (config.raw, config.out, config.workers, config.speed_threshold_s) == (
        tmp_path / "r",
        tmp_path / "o",
        3,
        2700.0,
    )


def test_zero_workers_means_every_core(tmp_path: Path) -> None:
    assert load(_write(tmp_path, "[ingest]\nworkers = 0\n")).workers is None


@pytest.mark.parametrize("key", ["roster", "events"])
def test_companion_file_beside_the_config_is_used_when_omitted(key: str, tmp_path: Path) -> None:
    _write(tmp_path, "", f"cfg/{key}.toml")
    config = load(_write(tmp_path, "", "cfg/ratings.toml"))
    assert getattr(config, f"{key}_path") == tmp_path / "cfg" / f"{key}.toml"


@pytest.mark.parametrize("key", ["roster", "events"])
def test_no_companion_file_when_omitted_and_none_beside(key: str, tmp_path: Path) -> None:
    assert getattr(load(_write(tmp_path, "")), f"{key}_path") is None


@pytest.mark.parametrize("key", ["roster", "events"])
def test_empty_companion_path_means_none_even_when_a_file_is_beside(key: str, tmp_path: Path) -> None:
    _write(tmp_path, "", f"{key}.toml")
    assert getattr(load(_write(tmp_path, f'[run]\n{key} = ""\n')), f"{key}_path") is None


@pytest.mark.parametrize("key", ["roster", "events"])
def test_companion_path_is_relative_to_the_config_folder(key: str, tmp_path: Path) -> None:
    _write(tmp_path, "", f"cfg/more/{key}-2024.toml")
    config = load(_write(tmp_path, f'[run]\n{key} = "more/{key}-2024.toml"\n', "cfg/ratings.toml"))
    assert getattr(config, f"{key}_path") == tmp_path / "cfg" / "more" / f"{key}-2024.toml"


def test_absolute_companion_path_is_kept(tmp_path: Path) -> None:
    target = _write(tmp_path, "", "elsewhere/players.toml")
    assert load(_write(tmp_path, f'[run]\nroster = "{target}"\n', "cfg/ratings.toml")).roster_path == target


def test_output_section_defaults_keep_three_generations_and_no_provisional_mark(tmp_path: Path) -> None:
    config = load(_write(tmp_path, "[output]\n"))
    assert (config.keep_generations, config.provisional_games) == (3, 0)


def test_output_section_gives_keep_generations_and_provisional_games(tmp_path: Path) -> None:
    config = load(_write(tmp_path, "[output]\nkeep_generations = 1\nprovisional_games = 5\n"))
    assert (config.keep_generations, config.provisional_games) == (1, 5)


def test_output_section_lists_everyone_by_default(tmp_path: Path) -> None:
    assert load(_write(tmp_path, "[output]\n")).active_within is None


def test_output_section_gives_active_within(tmp_path: Path) -> None:
    assert load(_write(tmp_path, '[output]\nactive_within = "24 months"\n')).active_within == Span(
        24, "month"
    )


def test_validity_holds_only_the_keys_given(tmp_path: Path) -> None:
    config = load(_write(tmp_path, '[validity]\ndraw = "count"\nopponent_cap = 0\n'))
    assert config.validity == {"draw": "count", "opponent_cap": 0}


def test_game_types_become_a_tuple(tmp_path: Path) -> None:
    assert load(_write(tmp_path, "[validity]\ngame_types = [1, 4]\n")).validity == {"game_types": (1, 4)}


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ('draw = "count"', "count"),
        ('no_show = "exclude"', "exclude"),
        ('handicap = "count"', "count"),
        ('non_member = "count"', "count"),
        ("opponent_cap = 0", 0),
        ("min_moves = 0", 0),
        ("handicap_from = 2", 2),
        ('unknown_speed = "slow"', "slow"),
    ],
)
def test_every_validity_key_accepts_its_values(line: str, value: object, tmp_path: Path) -> None:
    key = line.split(" = ")[0]
    assert load(_write(tmp_path, f"[validity]\n{line}\n")).validity == {key: value}


def test_shipped_ratings_toml_is_valid_and_leaves_validity_to_the_rule_set() -> None:
    config = load(ROOT / "config" / "ratings.toml")
    assert (config.rule_set, config.period, config.validity) == ("club", None, {})
    assert config.roster_path == ROOT / "config" / "roster.toml"
    assert config.events_path == ROOT / "config" / "events.toml"


def test_shipped_ratings_toml_comments_show_the_club_defaults(tmp_path: Path) -> None:
    text = (ROOT / "config" / "ratings.toml").read_text(encoding="utf-8")
    uncommented = re.sub(
        r"(?m)^# ((?:period|game_types|draw|no_show|handicap|non_member|opponent_cap|min_moves|"
        r"handicap_from|unknown_speed|placeholder_names) = )",
        r"\1",
        text,
    )
    (tmp_path / "ratings.toml").write_text(uncommented, encoding="utf-8")
    config = load(tmp_path / "ratings.toml")
    assert rules.validity("club", config.validity, config.period) == rules.validity("club")


@pytest.mark.parametrize(
    ("content", "place", "expected"),
    [
        ('[run]\nperiod = "week"\n', "[run] period", "one of 'month', 'quarter', 'half', 'year', got 'week'"),
        ('[run]\nrule_set = ""\n', "[run] rule_set", "a non-empty string, got ''"),
        ("[run]\nrule_set = 3\n", "[run] rule_set", "a non-empty string, got 3"),
        ("[run]\nroster = false\n", "[run] roster", "of type string, got False"),
        ("[run]\nevents = 1\n", "[run] events", "of type string, got 1"),
        ("[ingest]\nraw = 1\n", "[ingest] raw", "a non-empty string, got 1"),
        ("[ingest]\nworkers = true\n", "[ingest] workers", "of type int"),
        (
            "[ingest]\nspeed_threshold_minutes = -5\n",
            "[ingest] speed_threshold_minutes",
            "a number > 0, got -5",
        ),
        ("[validity]\ngame_types = 1\n", "[validity] game_types", "a non-empty list of ints >= 1"),
        ("[validity]\ngame_types = []\n", "[validity] game_types", "a non-empty list of ints >= 1"),
        ("[validity]\ngame_types = [0]\n", "[validity] game_types", "got [0]"),
        ('[validity]\ngame_types = ["1"]\n', "[validity] game_types", "got ['1']"),
        ('[validity]\ndraw = "yes"\n', "[validity] draw", "one of 'exclude', 'count', got 'yes'"),
        ("[validity]\nno_show = true\n", "[validity] no_show", "one of 'exclude', 'count', got True"),
        ('[validity]\nhandicap = "Count"\n', "[validity] handicap", "one of 'exclude', 'count'"),
        ('[validity]\nnon_member = ""\n', "[validity] non_member", "one of 'exclude', 'count'"),
        (
            "[validity]\nopponent_cap = -1\n",
            "[validity] opponent_cap",
            "of type int, 0 (no cap) or more, got -1",
        ),
        ("[validity]\nopponent_cap = 2.5\n", "[validity] opponent_cap", "got 2.5"),
        ("[validity]\nmin_moves = -1\n", "[validity] min_moves", "of type int, 0 or more, got -1"),
        ("[validity]\nhandicap_from = 1\n", "[validity] handicap_from", "of type int, 2 or more, got 1"),
        ('[validity]\nunknown_speed = "medium"\n', "[validity] unknown_speed", "one of 'fast', 'slow'"),
        ('[validity]\nplaceholder_names = "Black"\n', "[validity] placeholder_names", "a list of non-empty"),
        ('[validity]\nplaceholder_names = [""]\n', "[validity] placeholder_names", "got ['']"),
        ("[output]\nkeep_generations = 0\n", "[output] keep_generations", "of type int, 1 or more, got 0"),
        ('[output]\nkeep_generations = "3"\n', "[output] keep_generations", "got '3'"),
        ("[output]\nkeep_generations = 2.0\n", "[output] keep_generations", "got 2.0"),
        (
            "[output]\nprovisional_games = -1\n",
            "[output] provisional_games",
            "of type int, 0 (off) or more, got -1",
        ),
        ("[output]\nprovisional_games = true\n", "[output] provisional_games", "got True"),
        ("[output]\nprovisional_games = 4.5\n", "[output] provisional_games", "got 4.5"),
        ('[output]\nactive_within = "two years"\n', "[output] active_within", "got 'two years'"),
        ('[output]\nactive_within = "0 days"\n', "[output] active_within", "got '0 days'"),
        ("[output]\nactive_within = 24\n", "[output] active_within", 'such as "24 months", "2 years"'),
    ],
)
def test_bad_value_names_file_key_and_expectation(
    content: str, place: str, expected: str, tmp_path: Path
) -> None:
    message = _error(_write(tmp_path, content))
    assert f"{place} must be " in message and expected in message


@pytest.mark.parametrize(
    ("section", "known"),
    [
        ("run", "events, period, roster, rule_set"),
        ("ingest", "file_timeout_seconds, out, raw, scheduler, speed_threshold_minutes, workers"),
        ("output", "active_within, keep_generations, language, provisional_deviation, provisional_games"),
        (
            "validity",
            "draw, game_types, handicap, handicap_from, min_moves, no_show, non_member, opponent_cap",
        ),
    ],
)
def test_unknown_key_is_named_with_the_known_keys(section: str, known: str, tmp_path: Path) -> None:
    message = _error(_write(tmp_path, f"[{section}]\nspeling = 1\n"))
    assert f"[{section}] 'speling' is not a known key" in message and known in message


def test_unknown_section_is_named_with_the_known_sections(tmp_path: Path) -> None:
    message = _error(_write(tmp_path, "[rule]\nname = 'club'\n"))
    assert "'rule' is not a known key" in message and "ingest, output, rules, run, validity" in message


@pytest.mark.parametrize("section", ["run", "ingest", "output", "validity", "rules"])
def test_section_that_is_not_a_table_is_an_error(section: str, tmp_path: Path) -> None:
    assert f"[{section}] must be a table, got 3" in _error(_write(tmp_path, f"{section} = 3\n"))


def test_missing_file_is_an_error(tmp_path: Path) -> None:
    assert "configuration file not found" in _error(tmp_path / "none.toml")


def test_invalid_toml_is_an_error(tmp_path: Path) -> None:
    assert "not valid TOML" in _error(_write(tmp_path, "[run\n"))
