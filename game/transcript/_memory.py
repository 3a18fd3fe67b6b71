"""Memory numpy will not write: :func:`unwritable`, the view the referee hands out of its record."""

from __future__ import annotations

import numpy as np

__all__ = ["unwritable"]


class _ReadOnlyMemory:
    """Exports an array's memory to numpy as read-only (the array kept alive beside it)."""

    __slots__ = ("__array_interface__", "_array")

    def __init__(self, array: np.ndarray):
        self._array = array
        interface = dict(array.__array_interface__)
        interface["data"] = (interface["data"][0], True)
        self.__array_interface__ = interface


def unwritable(array: np.ndarray) -> np.ndarray:
    """A view of ``array`` through which numpy never writes (its flag cannot be set again).

    An array's ``writeable`` flag can be set back to True by anyone holding it
    or a view of it, unless the memory below is exported read-only, as here.
    Writes to ``array`` itself show through the view.

    Examples
    --------
    >>> a = np.zeros(3)
    >>> v = unwritable(a)
    >>> for target in (v, v.base, np.asarray(v), v.view()):
    ...     try:
    ...         target.flags.writeable = True
    ...     except (AttributeError, ValueError) as exc:
    ...         print(type(exc).__name__)
    ValueError
    AttributeError
    ValueError
    ValueError
    >>> a[0] = 1.0; v.tolist()
    [1.0, 0.0, 0.0]
    """
    return np.asarray(_ReadOnlyMemory(array))
