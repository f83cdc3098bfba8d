"""Configuration files that cannot be read as TOML text: another encoding, a byte-order mark, a folder, a
file the process may not read. Each is a ConfigError naming the file and saying what was found (the
command line exits 2), never a traceback."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import ConfigError, load
from pipeline.config.events import load_events
from pipeline.config.roster import load_roster

runner = CliRunner()
RATINGS_GBK = '# 围棋俱乐部的配置：黑白对局\n[run]\nrule_set = "club"\n'.encode("gbk")
ROSTER = '[[player]]\nname = "羽焰"\nrank = "1d"\n'
EVENTS_BIG5 = '[[event]]\nname = "圍棋公開賽"\nkind = "other"\n'.encode("big5")


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _message(error: pytest.ExceptionInfo[ConfigError], path: Path) -> str:
    message = str(error.value)
    assert message.startswith(f"{path}: "), message
    return message


def test_a_ratings_toml_with_a_gbk_comment_names_the_file_and_gbk(tmp_path: Path) -> None:
    path = _write(tmp_path, "ratings.toml", RATINGS_GBK)
    with pytest.raises(ConfigError) as error:
        load(path)
    message = _message(error, path)
    assert "not UTF-8" in message and "GB18030" in message and "save it as UTF-8" in message


def test_the_first_byte_that_is_not_utf8_is_located_by_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "ratings.toml", b"[run]\n" + RATINGS_GBK)
    with pytest.raises(ConfigError) as error:
        load(path)
    assert "line 2" in _message(error, path)


def test_a_roster_saved_as_utf16_with_a_bom_is_named_as_such(tmp_path: Path) -> None:
    path = _write(tmp_path, "roster.toml", ROSTER.encode("utf-16"))  # Notepad's "Unicode"
    with pytest.raises(ConfigError) as error:
        load_roster(path)
    message = _message(error, path)
    assert "not UTF-8 (looks like UTF-16 with a byte-order mark); save it as UTF-8" in message


def test_a_roster_saved_as_utf16_without_a_bom_is_named_as_such(tmp_path: Path) -> None:
    path = _write(tmp_path, "roster.toml", ROSTER.encode("utf-16-le"))
    with pytest.raises(ConfigError) as error:
        load_roster(path)
    assert "looks like UTF-16 (little-endian, no byte-order mark)" in _message(error, path)


def test_an_events_file_in_big5_names_big5(tmp_path: Path) -> None:
    path = _write(tmp_path, "events.toml", EVENTS_BIG5)
    with pytest.raises(ConfigError) as error:
        load_events(path)
    message = _message(error, path)
    assert "not UTF-8" in message and "Big5" in message


def test_a_utf8_file_with_a_bom_is_read_as_utf8(tmp_path: Path) -> None:
    path = _write(tmp_path, "ratings.toml", codecs.BOM_UTF8 + b'[run]\nrule_set = "club"\n')
    assert load(path).rule_set == "club"


def test_a_roster_saved_by_notepad_with_a_utf8_bom_is_read(tmp_path: Path) -> None:
    path = _write(tmp_path, "roster.toml", codecs.BOM_UTF8 + ROSTER.encode("utf-8"))
    assert [p.name for p in load_roster(path).players] == ["羽焰"]


def test_a_folder_named_as_the_configuration_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as error:
        load(tmp_path)
    assert "is a folder, not a configuration file" in _message(error, tmp_path)


def test_an_unreadable_configuration_is_a_config_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(tmp_path, "ratings.toml", b"")

    def refuse(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", refuse)  # chmod does not stop root, who runs the tests here
    with pytest.raises(ConfigError) as error:
        load(path)
    assert "cannot be read (Permission denied)" in _message(error, path)


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("ratings.toml", RATINGS_GBK, "GB18030"),
        ("roster.toml", ROSTER.encode("utf-16"), "UTF-16"),
        ("events.toml", EVENTS_BIG5, "Big5"),
    ],
)
@pytest.mark.slow
def test_ratings_run_exits_2_for_a_file_in_another_encoding(
    name: str, data: bytes, expected: str, tmp_path: Path
) -> None:
    folder = tmp_path / "cfg"
    folder.mkdir()
    for companion in ("ratings.toml", "roster.toml", "events.toml"):
        (folder / companion).write_text("", encoding="utf-8")
    (folder / name).write_bytes(data)
    (tmp_path / "raw").mkdir()
    args = ["run", "--config", str(folder / "ratings.toml"), "--raw", str(tmp_path / "raw")]
    result = runner.invoke(app, [*args, "--out", str(tmp_path / "out")])
    message = " ".join(result.output.split())
    assert result.exit_code == 2, result.output
    assert name in message and expected in message
    assert not (tmp_path / "out").exists()


def test_ratings_run_exits_2_when_config_names_a_folder(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", "--config", str(tmp_path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "is a folder" in result.output
