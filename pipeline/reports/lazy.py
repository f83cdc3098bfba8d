"""lazy: the names a package re-exports, imported from their modules when first used (PEP 562).

A package of :mod:`pipeline.reports` whose modules bring pandas (and the readers, and pyarrow) names its
re-exports through :func:`exports`, so that importing the package, for one of its constants or one light
module of it, imports none of them: every ``ratings`` command, ``ratings run`` and ``ratings --help``
too, imports the modules that the command line's option texts name. The package also imports the same
names under ``if TYPE_CHECKING:``, for the type checker. A re-exported name must not be the name of one
of the package's modules (importing that module would set the package's attribute to the module).
Knows nothing of what the names are.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping, Sequence


def exports(package: str, names: Mapping[str, Sequence[str]]) -> Callable[[str], object]:
    """The module ``__getattr__`` of ``package``: each of ``names`` (module -> the names of it that the
    package re-exports) from its module, imported on first use; else the package's module of that
    name (``package.records``, as an eager package gave it once any of its modules had imported it).

    The value is then kept in the package, so that later uses do not come here. The function returned
    raises AttributeError, as for any missing module attribute, for a name that is neither.
    """
    where = {name: module for module, found in names.items() for name in found}

    def attribute(name: str) -> object:
        module = where.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module), name)
        elif importlib.util.find_spec(f"{package}.{name}") is not None:
            value = importlib.import_module(f"{package}.{name}")
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(sys.modules[package], name, value)
        return value

    return attribute
