"""core.frozen: many values of a frozen, slotted dataclass at once, from one column a field.

A frozen dataclass's ``__init__`` stores each field with ``object.__setattr__`` (its own ``__setattr__``
refuses): a Python-level call a field and a value, the better part of building a value with many fields
(a :class:`~pipeline.rules.base.Change` has eleven). :func:`built` makes the values empty and fills each
field's slot for all of them in one pass (``map`` over the slot's descriptor), about half the cost: the
values are those ``cls(*row)`` gives for each row, equal and with the same ``repr``. Only for a slotted
dataclass with no ``__post_init__`` (whose checks this would skip) and every field given.

Knows nothing of what the classes mean.
"""

from __future__ import annotations

import dataclasses
import types
from collections import deque
from collections.abc import Sequence
from itertools import repeat
from typing import Any, TypeVar

T = TypeVar("T")


def built(cls: type[T], columns: Sequence[Sequence[Any]]) -> list[T]:
    """One ``cls`` a row of ``columns`` (one sequence a field of ``cls``, in its order, all of one length):
    the values of ``cls(*row)``, without calling ``__init__``. Raises :class:`TypeError` naming ``cls``
    when it is not a slotted dataclass without ``__post_init__``, :class:`ValueError` naming the field
    whose column is missing or of another length."""
    names = _fields(cls)
    if len(columns) != len(names):
        raise ValueError(f"{cls.__name__}: {len(columns)} columns for {len(names)} fields {names}")
    count = len(columns[0]) if columns else 0
    for name, column in zip(names, columns, strict=True):
        if len(column) != count:
            raise ValueError(f"{cls.__name__}.{name}: {len(column)} values, the first column has {count}")
    found: list[T] = list(map(object.__new__, repeat(cls, count)))
    for name, column in zip(names, columns, strict=True):
        deque(map(getattr(cls, name).__set__, found, column), maxlen=0)  # (consumes: sets every slot)
    return found


def _fields(cls: type[Any]) -> tuple[str, ...]:
    """The names of ``cls``'s fields, checked to be slots that ``__init__`` would set as given."""
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: not a dataclass without __post_init__")
    names = tuple(f.name for f in dataclasses.fields(cls))
    for name in names:
        if not isinstance(getattr(cls, name, None), types.MemberDescriptorType):
            raise TypeError(f"{cls.__name__}.{name}: not a slot (a dataclass with slots=True is needed)")
    return names
