"""tomlcheck: read a TOML file and check its tables' keys, types and ranges.

Every failure is a :class:`ConfigError` whose message names the file, the place (``[run]``,
``[[player]] #2 (羽焰)``), the key, what was expected and the value found:
``"<file>: [section] key must be <expected>, got <value>"``.
A file is read as TOML requires, UTF-8 without a byte-order mark; a file in another encoding is refused
with a message saying which encoding it looks like (:func:`utf8_text`). Knows nothing of what any key
means; the configuration modules say which keys exist and what they hold.
"""

from __future__ import annotations

import codecs
import dataclasses
import datetime as dt
import tomllib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, NoReturn, TypeVar

from pipeline.core.charset import detect
from pipeline.core.i18n import N_, _
from pipeline.core.ranks import parse_rank

T = TypeVar("T")


class ConfigError(Exception):
    """Raised when a configuration file is missing, unreadable or holds a bad value.

    The message names the file, the key and what was expected.
    """


def read_toml(path: Path) -> dict[str, Any]:
    """Return the parsed contents of the TOML file ``path``.

    Raises :class:`ConfigError` if the file is missing, is a folder, cannot be read, is not UTF-8 (TOML's
    only encoding: the message names the encoding it looks like, see :func:`utf8_text`) or is not valid TOML.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(_("{path}: configuration file not found").format(path=path)) from None
    except IsADirectoryError:
        raise ConfigError(_("{path}: is a folder, not a configuration file").format(path=path)) from None
    except OSError as e:
        raise ConfigError(
            _("{path}: cannot be read ({why})").format(path=path, why=e.strerror or e)
        ) from None
    try:
        return tomllib.loads(utf8_text(path, data))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(_("{path}: not valid TOML: {error}").format(path=path, error=e)) from None


#: Byte-order marks, longest first (UTF-32's starts with UTF-16's), and what a message calls them.
_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF8, "UTF-8"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)
#: The codecs :func:`pipeline.core.charset.detect` names, as people know them.
_KNOWN_AS = {
    "gb18030": "GB18030 (GBK, GB2312)",
    "cp950": "Big5",
    "cp949": "EUC-KR (CP949)",
    "cp932": "Shift_JIS (CP932)",
    "cp1252": "Windows-1252 (Latin-1)",
}


def utf8_text(path: Path, data: bytes) -> str:
    """``data`` (the bytes of ``path``) decoded as UTF-8.

    A UTF-8 byte-order mark (Notepad saves one) is dropped: the text is still UTF-8, although TOML
    text has none (tomllib would report "Invalid statement" at line 1).

    Raises :class:`ConfigError` naming ``path`` if ``data`` starts with another byte-order mark (UTF-16,
    UTF-32) or is not UTF-8: the message says what it looks like (UTF-16 with or without a byte-order
    mark, or the likeliest encoding) and where the first byte that is not UTF-8 is.
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            if name == "UTF-8":
                data = data[len(bom) :]
                break
            message = _("{path}: not UTF-8 (looks like {name} with a byte-order mark); save it as UTF-8")
            raise ConfigError(message.format(path=path, name=name))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        message = _(
            "{path}: not UTF-8 (looks like {name}; the first byte that is not UTF-8 is on line {line}); "
            "save it as UTF-8"
        )
        raise ConfigError(message.format(path=path, name=_looks_like(data), line=line)) from None


def _looks_like(data: bytes) -> str:
    """What bytes that are not UTF-8 look like: UTF-16 without a byte-order mark (NUL bytes at every other
    place of ASCII text), else the likeliest encoding (:func:`pipeline.core.charset.detect`)."""
    head = data[:64]
    if len(head) >= 4 and head[1::2].count(0) * 2 >= len(head) // 2 and not head[0::2].count(0):
        return "UTF-16 (little-endian, no byte-order mark)"
    if len(head) >= 4 and head[0::2].count(0) * 2 >= len(head) // 2 and not head[1::2].count(0):
        return "UTF-16 (big-endian, no byte-order mark)"
    codec = detect(data)
    return _KNOWN_AS.get(codec, codec)


@dataclass(frozen=True, slots=True)
class Kind(Generic[T]):
    """What a key may hold: ``expected`` (for messages), ``accepts`` (a test), ``convert`` (to the value)."""

    expected: str
    accepts: Callable[[Any], bool]
    convert: Callable[[Any], T]


def _is_int(value: object) -> bool:
    """True for a TOML integer (a bool is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    """True for a TOML integer or float (a bool is not one)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def text(*, empty: bool = False) -> Kind[str]:
    """A string; blank (only white space) accepted only when ``empty``."""
    if empty:
        return Kind(N_("of type string"), lambda v: isinstance(v, str), str)
    return Kind(N_("a non-empty string"), lambda v: isinstance(v, str) and bool(v.strip()), str)


def boolean() -> Kind[bool]:
    """``true`` or ``false``."""
    return Kind(N_("of type boolean (true or false)"), lambda v: isinstance(v, bool), bool)


def integer(minimum: int, expected: str | None = None) -> Kind[int]:
    """An integer ``>= minimum``; ``expected`` replaces the default message text."""
    shown = expected or _("of type int, {minimum} or more").format(minimum=minimum)
    return Kind(shown, lambda v: _is_int(v) and v >= minimum, int)


def number(*, positive: bool = False) -> Kind[float]:
    """An integer or float (``> 0`` when ``positive``), stored as a float."""
    if positive:
        return Kind(N_("a number > 0"), lambda v: _is_number(v) and v > 0, float)
    return Kind(N_("a number"), _is_number, float)


def one_of(*choices: str) -> Kind[str]:
    """One of the strings ``choices`` (exact, case-sensitive)."""
    return Kind(
        _("one of {choices}").format(choices=", ".join(map(repr, choices))), lambda v: v in choices, str
    )


def date() -> Kind[dt.date]:
    """A TOML local date (``2024-06-30``, no quotes); a date-time is not accepted."""
    return Kind(
        N_("a TOML date such as 2024-06-30 (no quotes, no time)"),
        lambda v: isinstance(v, dt.date) and not isinstance(v, dt.datetime),
        lambda v: v,
    )


def rank() -> Kind[str]:
    """Rank text that :func:`pipeline.core.ranks.parse_rank` reads, stored canonical (``1d``)."""
    return Kind(
        N_("a rank such as 5k, 1d, 9p or 三段"),
        lambda v: isinstance(v, str) and parse_rank(v) is not None,
        lambda v: str(parse_rank(v)),
    )


def list_of(item: Kind[T], expected: str, *, nonempty: bool = False) -> Kind[tuple[T, ...]]:
    """An array whose every element ``item`` accepts (at least one when ``nonempty``), stored as a tuple."""
    return Kind(
        expected,
        lambda v: isinstance(v, list) and all(map(item.accepts, v)) and (bool(v) or not nonempty),
        lambda v: tuple(map(item.convert, v)),
    )


_MISSING = object()


def _show(value: object) -> str:
    """The value as a message shows it: its repr, or ``nothing`` when the key is missing."""
    return _("nothing (the key is missing)") if value is _MISSING else repr(value)


@dataclass(frozen=True, slots=True)
class Table:
    """A TOML table of ``path`` found at ``where`` (``""`` for the file's top level)."""

    path: Path
    where: str
    data: Mapping[str, Any]

    def place(self, key: str) -> str:
        """``<file>: <where> <key>``, the start of every message about ``key``."""
        return f"{self.path}: {self.where} {key}" if self.where else f"{self.path}: {key}"

    def fail(self, key: str, expected: str, value: object) -> NoReturn:
        """Raise :class:`ConfigError` ``"<file>: <where> <key> must be <expected>, got <value>"``."""
        message = _("{place} must be {expected}, got {value}")
        raise ConfigError(message.format(place=self.place(key), expected=_(expected), value=_show(value)))

    def named(self, label: str) -> Table:
        """The same table with ``(label)`` added to its place, e.g. the player's name."""
        return dataclasses.replace(self, where=f"{self.where} ({label})")

    def check_keys(self, known: Collection[str]) -> None:
        """Raises :class:`ConfigError` if the table holds a key not in ``known`` (the message lists them)."""
        for key in self.data:
            if key not in known:
                listed = ", ".join(sorted(known))
                message = _("{place} is not a known key; expected one of: {keys}")
                raise ConfigError(message.format(place=self.place(repr(key)), keys=listed))

    def _value(self, key: str, kind: Kind[T]) -> T:
        """The value of ``key`` (present) converted. Raises :class:`ConfigError` if ``kind`` rejects it."""
        value = self.data[key]
        if not kind.accepts(value):
            self.fail(key, kind.expected, value)
        return kind.convert(value)

    def get(self, key: str, kind: Kind[T], default: T) -> T:
        """The value of ``key`` converted, or ``default`` when absent.

        Raises :class:`ConfigError` if the value is present and ``kind`` does not accept it.
        """
        return self._value(key, kind) if key in self.data else default

    def optional(self, key: str, kind: Kind[T]) -> T | None:
        """The value of ``key`` converted, or None when absent. Raises as :meth:`get`."""
        return self._value(key, kind) if key in self.data else None

    def required(self, key: str, kind: Kind[T]) -> T:
        """The value of ``key`` converted.

        Raises :class:`ConfigError` if the key is missing or ``kind`` does not accept its value.
        """
        if key not in self.data:
            self.fail(key, kind.expected, _MISSING)
        return self._value(key, kind)

    def table(self, key: str) -> Table:
        """The top-level section ``[key]`` (empty when absent).

        Raises :class:`ConfigError` if the value is not a table.
        """
        where = f"[{key}]"
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            message = _("{path}: {where} must be a table, got {value}")
            raise ConfigError(message.format(path=self.path, where=where, value=repr(value)))
        return Table(self.path, where, value)

    def tables(self, key: str, label: str) -> list[Table]:
        """The array of tables ``[[label]]`` stored under ``key`` (empty when absent), numbered from 1.

        Raises :class:`ConfigError` if the value is not an array of tables.
        """
        value = self.data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.fail(key, _("an array of tables (write [[{label}]] sections)").format(label=label), value)
        prefix = f"{self.where} " if self.where else ""
        return [Table(self.path, f"{prefix}[[{label}]] #{n}", v) for n, v in enumerate(value, 1)]
