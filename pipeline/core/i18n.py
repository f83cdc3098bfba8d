"""core.i18n: the language a person reads: which one, and the words in it.

Three languages: ``zh-Hans`` (simplified Chinese), ``zh-Hant`` (traditional Chinese) and ``en``
(English, the language of the source strings). :func:`resolve` picks one from a command's
``--lang``, else the configuration's ``[output] language``, else the locale (``LC_ALL``,
``LC_MESSAGES``, ``LANG``), else English; :func:`language_of` reads one spelling.

The words are gettext catalogs (``pipeline/locale/<dir>/LC_MESSAGES/messages.mo``) compiled from the
``.po`` files by ``make i18n`` (and by ``make install``), never at import. The chosen language is the
one piece of ambient context in the package, like :func:`decimal.localcontext`: the command line (or
the site's builder, once per language it builds) enters :func:`speaking`, and every ``_()`` inside
reads it; outside any :func:`speaking` block the words are English.

What stays English whatever the language (the data: Parquet columns, reason codes, period strings,
``manifest.json``, ``--format csv|json``) is the callers' concern: this module knows nothing of what a
message means, only how to look it up.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

ENGLISH = "en"
SIMPLIFIED = "zh-Hans"
TRADITIONAL = "zh-Hant"
#: The languages there are, in the order a chooser lists them.
LANGUAGES = (SIMPLIFIED, TRADITIONAL, ENGLISH)
#: Each language's own name (the language switch of the site, the chooser page).
NATIVE_NAMES = {SIMPLIFIED: "简体中文", TRADITIONAL: "繁體中文", ENGLISH: "English"}
#: Each translated language's catalog folder under ``pipeline/locale`` (gettext's locale names).
CATALOG_DIRS = {SIMPLIFIED: "zh_Hans", TRADITIONAL: "zh_Hant"}
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "messages"
#: The locale variables read, in gettext's order of precedence.
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")

_SIMPLIFIED_REGIONS = ("cn", "sg", "my", "hans")
_TRADITIONAL_REGIONS = ("tw", "hk", "mo", "hant")


class LanguageError(ValueError):
    """A language that is not one of :data:`LANGUAGES`; the message names the value and the choices."""


class CatalogMissing(RuntimeError):
    """A translated language whose compiled catalog is not there (``make i18n`` compiles it)."""


def language_of(value: str) -> str:
    """The language ``value`` spells: ``zh-Hans``, ``zh-Hant`` or ``en``, in any case, with ``_`` or
    ``-`` (``zh_hant``), or as a Chinese locale or region (``zh-CN``, ``zh_TW``, ``zh-HK``);
    :class:`LanguageError` for anything else."""
    spelt = _language_or_none(value)
    if spelt is None:
        raise LanguageError(f"unknown language {value!r}: choose one of {', '.join(LANGUAGES)}")
    return spelt


def spells_language(value: str) -> bool:
    """True when ``value`` spells one of :data:`LANGUAGES` (:func:`language_of`)."""
    return _language_or_none(value) is not None


def _language_or_none(value: str) -> str | None:
    parts = value.strip().replace("_", "-").split(".")[0].split("@")[0].lower().split("-")
    if parts[0] in ("en", "c", "posix"):
        return ENGLISH
    if parts[0] != "zh":
        return None
    if len(parts) == 1:
        return SIMPLIFIED
    if any(p in _TRADITIONAL_REGIONS for p in parts[1:]):
        return TRADITIONAL
    if any(p in _SIMPLIFIED_REGIONS for p in parts[1:]):
        return SIMPLIFIED
    return None


def from_locale(environ: Mapping[str, str]) -> str | None:
    """The language of the first locale variable that is set (:data:`LOCALE_VARIABLES`): a Chinese
    locale's (``zh_CN``, ``zh_SG`` simplified; ``zh_TW``, ``zh_HK``, ``zh_MO`` traditional), English
    for any other; None when none is set."""
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if value:
            return _language_or_none(value) or ENGLISH
    return None


def resolve(option: str | None, configured: str | None, environ: Mapping[str, str]) -> str:
    """The language to speak: ``option`` (``--lang``), else ``configured`` (``[output] language``),
    else the locale's, else English. :class:`LanguageError` when ``option`` or ``configured`` spells
    no language."""
    for given in (option, configured):
        if given:
            return language_of(given)
    return from_locale(environ) or ENGLISH


def languages_of(value: str) -> tuple[str, ...]:
    """The languages of a comma-separated list (``zh-Hans,zh-Hant,en``), each once, in the order given."""
    chosen = [language_of(v) for v in value.split(",") if v.strip()]
    if not chosen:
        raise LanguageError(f"no language in {value!r}: choose from {', '.join(LANGUAGES)}")
    return tuple(dict.fromkeys(chosen))


def catalog_path(language: str) -> Path:
    """Where ``language``'s compiled catalog lives (English has none: its words are the source's)."""
    return LOCALE_DIR / CATALOG_DIRS[language] / "LC_MESSAGES" / f"{DOMAIN}.mo"


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """``language``'s words: its compiled catalog, read once; English's are the messages themselves.
    :class:`CatalogMissing` when a translated language has no compiled catalog."""
    if language == ENGLISH:
        return _gettext.NullTranslations()
    path = catalog_path(language)
    try:
        with path.open("rb") as f:
            return _gettext.GNUTranslations(f)
    except FileNotFoundError:
        raise CatalogMissing(f"the {language} catalog is not compiled ({path}): run `make i18n`") from None


_SPEAKING: ContextVar[str] = ContextVar("speaking", default=ENGLISH)


@contextmanager
def speaking(language: str) -> Iterator[str]:
    """Within the block, ``_()`` and its kin speak ``language`` (checked by :func:`language_of`)."""
    spelt = language_of(language)
    translations(spelt)  # a missing catalog fails here, not at the first message
    token = _SPEAKING.set(spelt)
    try:
        yield spelt
    finally:
        _SPEAKING.reset(token)


def current() -> str:
    """The language spoken here (English outside any :func:`speaking` block)."""
    return _SPEAKING.get()


def gettext(message: str) -> str:
    """``message`` in the language spoken here."""
    return translations(_SPEAKING.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the language spoken here (not yet formatted)."""
    return translations(_SPEAKING.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the sense ``context`` gives it, in the language spoken here."""
    return translations(_SPEAKING.get()).pgettext(context, message)


def N_(message: str) -> str:
    """``message`` itself, marked for extraction: translated where it is shown, with ``_()``."""
    return message


class Said(str):
    """A sentence the data keep in English (the ``str`` itself: ``message`` formatted with ``fields``)
    that a person reads in the language spoken (:meth:`said`). ``plural``: the English form for a count
    ``fields["n"]`` other than 1 (each form its own catalog entry; Chinese writes both alike). Built
    where the sentence arises (the rule sets' warnings), stored as English (``manifest.json``), said
    again at display; :meth:`as_json` and :meth:`from_json` carry it through a file. A field may be a
    :class:`Said` itself, or a list (shown joined by commas), said again with it."""

    message: str
    plural: str | None
    fields: dict[str, object]

    def __new__(cls, message: str, plural: str | None = None, /, **fields: object) -> Said:
        form = plural if plural is not None and fields.get("n") != 1 else message
        self = super().__new__(cls, form.format(**{k: _field(v, False) for k, v in fields.items()}))
        self.message, self.plural, self.fields = message, plural, dict(fields)
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (_said_again, (self.message, self.plural, self.fields))

    def said(self) -> str:
        """The sentence in the language spoken here."""
        form = self.plural if self.plural is not None and self.fields.get("n") != 1 else self.message
        return gettext(form).format(**{k: _field(v, True) for k, v in self.fields.items()})

    def as_json(self) -> dict[str, object]:
        """``{"message", "plural", "fields"}``, a field that is a :class:`Said` as its own object."""
        return {"message": self.message, "plural": self.plural, "fields": _json(self.fields)}

    @classmethod
    def from_json(cls, found: Mapping[str, object]) -> Said:
        """The sentence :meth:`as_json` wrote."""
        fields, plural = found.get("fields"), found.get("plural")
        read = {str(k): _unjson(v) for k, v in fields.items()} if isinstance(fields, dict) else {}
        return cls(str(found["message"]), plural if isinstance(plural, str) else None, **read)


def _json(value: object) -> object:
    if isinstance(value, Said):
        return {"said": value.as_json()}
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


def _unjson(value: object) -> object:
    if isinstance(value, dict) and isinstance(value.get("said"), dict):
        return Said.from_json(value["said"])
    if isinstance(value, list):
        return [_unjson(v) for v in value]
    return value


def _field(value: object, speak: bool) -> object:
    """A field as the sentence shows it: a :class:`Said` said (``speak``) or English; a list joined."""
    if isinstance(value, list | tuple):
        return (gettext(", ") if speak else ", ").join(str(_field(v, speak)) for v in value)
    return value.said() if speak and isinstance(value, Said) else value


def _said_again(message: str, plural: str | None, fields: dict[str, object]) -> Said:
    return Said(message, plural, **fields)


def said(text: str) -> str:
    """``text`` in the language spoken here when it is a :class:`Said`, else as it is."""
    return text.said() if isinstance(text, Said) else text


_ = gettext
