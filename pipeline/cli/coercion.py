"""cli.coercion: the options' values converted as typer converts them, without pydantic where they are
plain.

typer (0.2x) converts each parameter's value through a pydantic ``TypeAdapter`` that it builds when the
command runs: importing pydantic and building the adapters cost about a tenth of a second of CPU, a
tenth of what an answer about one player may take. The commands' values are plain: a text, a path, a
whole number, a list of texts, a member of an enum, or none given. :func:`install` gives each of a
command's parameters a converter that converts those as typer's adapters do (by typer's own functions
where it has them: ``coerce_cli_path``, ``coerce_cli_choice``), and hands any other value, or one it
cannot convert, to typer's converter, built then: so an error says what typer says. It relies on typer's
private modules, so it acts only for the typer releases it was checked against (:data:`CHECKED`); with
any other typer, or one that converts otherwise (no ``typer._coercion``), :func:`install` does nothing and
typer converts every value itself, as before.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

import typer

_OTHER = object()  # (a value :func:`plain_value` leaves to typer)
#: The typer releases (major.minor) whose private converters this module was checked against
#: (tests/test_cli_coercion.py compares every case with typer's own conversion).
CHECKED = ("0.29",)

try:
    from typer._coercion import RuntimeParam, build_runtime_param
    from typer._param_types import coerce_cli_choice, coerce_cli_path
except ImportError:  # pragma: no cover (a typer that converts otherwise)
    RuntimeParam = None  # type: ignore[assignment,misc]


def active() -> bool:
    """Whether :func:`install` acts: the installed typer is one of :data:`CHECKED` and has the modules."""
    return RuntimeParam is not None and ".".join(typer.__version__.split(".")[:2]) in CHECKED


def install(params: Iterable[Any]) -> None:
    """Give each of typer's ``params`` whose converter is not built yet a :class:`Plain` one (none when
    the typer is not one of :data:`CHECKED`: :func:`active`)."""
    if not active():  # pragma: no cover
        return
    for param in params:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is None or getattr(param, "_runtime_param", False) is not None:
            continue
        if descriptor.file_annotation is None:
            param._runtime_param = Plain(descriptor.parameter_info, descriptor.annotation, descriptor)


if RuntimeParam is not None:

    @dataclasses.dataclass(frozen=True)
    class Plain(RuntimeParam):
        """A parameter's converter: :func:`plain_value`, else typer's (built when first needed)."""

        descriptor: Any = None

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            try:
                found = plain_value(value, self.annotation, self.parameter_info, param, ctx)
            except Exception:  # (typer's converter says what is wrong, as it would have)
                found = _OTHER
            if found is not _OTHER:
                return found
            typer_s = build_runtime_param(self.descriptor)
            param._runtime_param = typer_s
            return typer_s.coerce(value, param=param, ctx=ctx)


def plain_value(value: Any, annotation: Any, info: Any, param: Any, ctx: Any) -> Any:
    """``value`` converted for a parameter of type ``annotation`` (and typer's ``info``) as typer's
    adapter converts it, or :data:`_OTHER` when it is not plain (or ``info`` asks for more)."""
    if info.parser is not None:
        return _OTHER
    if annotation is str and type(value) is str:
        return value
    if get_origin(annotation) is list and get_args(annotation) == (str,):
        return (
            list(value) if isinstance(value, tuple | list) and all(type(v) is str for v in value) else _OTHER
        )
    if annotation is int and info.min is None and info.max is None and not info.clamp:
        if type(value) is int:
            return value
        return int(value) if type(value) is str and value.isascii() and value.isdigit() else _OTHER
    if annotation is Path and info.path_type is None and isinstance(value, str | Path):
        return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return coerce_cli_choice(value, choices=list(annotation), case_sensitive=info.case_sensitive, ctx=ctx)
    return _OTHER
