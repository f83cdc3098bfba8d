"""The catalogs: every message of the code and the templates translated in every language, with the
same placeholders, no fuzzy or obsolete entry, and the compiled catalogs those of the .po files."""

from __future__ import annotations

import gettext
from functools import cache

import pytest
from babel.messages.catalog import Catalog, Message

from i18n import catalogs
from pipeline.core import i18n

LOCALES = catalogs.LOCALES


@cache
def extracted() -> Catalog:
    return catalogs.extracted()


def _key(message: Message) -> tuple[str, str | None]:
    ident = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return ident, message.context


def _strings(value: object) -> list[str]:
    if isinstance(value, tuple | list):
        return [str(v) for v in value]
    return [str(value or "")]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_of_the_code_is_translated(locale: str) -> None:
    catalog = catalogs.read(locale)
    missing = [
        message.id
        for message in extracted()
        if message.id
        and (
            (found := catalog.get(_key(message)[0], message.context)) is None
            or not all(_strings(found.string))
        )
    ]
    assert missing == [], f"{len(missing)} messages without a {locale} translation: run make i18n"


@pytest.mark.parametrize("locale", LOCALES)
def test_a_catalog_holds_no_message_the_code_no_longer_has(locale: str) -> None:
    wanted = {_key(m) for m in extracted() if m.id}
    obsolete = [m.id for m in catalogs.read(locale) if m.id and _key(m) not in wanted]
    assert obsolete == []
    assert not catalogs.read(locale).obsolete


@pytest.mark.parametrize("locale", LOCALES)
def test_a_catalog_holds_no_fuzzy_entry(locale: str) -> None:
    assert [m.id for m in catalogs.read(locale) if m.id and m.fuzzy] == []


@pytest.mark.parametrize("locale", LOCALES)
def test_a_translation_has_the_placeholders_of_its_message(locale: str) -> None:
    wrong = []
    for message in catalogs.read(locale):
        if not message.id:
            continue
        source = " ".join(_strings(message.id))
        forms = [catalogs.placeholders(form) for form in _strings(message.id)]
        for string in _strings(message.string):
            if string and catalogs.placeholders(string) not in forms:  # a plural's one form: either's
                wrong.append((source, string))
    assert wrong == []


@pytest.mark.parametrize("language", [i18n.SIMPLIFIED, i18n.TRADITIONAL])
def test_the_compiled_catalog_is_that_of_the_po_file(language: str) -> None:
    locale = i18n.CATALOG_DIRS[language]
    with i18n.catalog_path(language).open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    stale = [
        m.id
        for m in catalogs.read(locale)
        if m.id
        and isinstance(m.id, str)
        and m.string
        and m.context is None
        and compiled.gettext(m.id) != m.string
    ]
    assert stale == [], "the compiled catalog is older than the .po file: run make i18n"


def test_placeholders_are_found_in_every_form() -> None:
    assert catalogs.placeholders("{n} games in %(period)s, %d left") == ["%(period)s", "%d", "{n}"]


def test_the_traditional_draft_converts_simplified_characters() -> None:
    assert catalogs.to_traditional("围棋等级分") == "圍棋等級分"
