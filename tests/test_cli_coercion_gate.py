"""cli.coercion acts only for the typer releases it was checked against: with another, typer converts."""

from __future__ import annotations

import pytest
import typer

from pipeline.cli import coercion


def test_an_unchecked_typer_release_turns_the_plain_converters_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(typer, "__version__", "0.99.0")
    assert not coercion.active()


def test_install_does_not_look_at_the_parameters_of_an_unchecked_typer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Param:
        @property
        def type_descriptor(self) -> None:
            raise AssertionError("install looked at a parameter of an unchecked typer")

    monkeypatch.setattr(typer, "__version__", "0.99.0")
    coercion.install([Param()])
