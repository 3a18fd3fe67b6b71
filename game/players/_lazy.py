"""A façade whose names import their modules when first used (``learners``, ``adversaries``).

Examples
--------
>>> import types
>>> facade = types.ModuleType("facade")
>>> facade.__getattr__, facade.__dir__ = lazy_names(facade, {"sqrt": "math"})
>>> facade.sqrt(4.0), "sqrt" in vars(facade)
(2.0, True)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    module: ModuleType | str, where: dict[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A module's ``__getattr__`` and ``__dir__`` for names that live in other modules.

    ``where`` maps each name to the module that defines it; a name is imported
    when first asked for and kept in the façade, so the next use is a plain
    attribute. Any other name is an AttributeError, as for any module.
    """
    facade = importlib.import_module(module) if isinstance(module, str) else module

    def __getattr__(name: str) -> Any:
        home = where.get(name)
        if home is None:
            raise AttributeError(f"module {facade.__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(facade, name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(facade)) | set(where))

    return __getattr__, __dir__
