"""The kinds of certificate a transcript can hold, and reading one back.

One static table, :data:`CERTIFICATE_KINDS`, lists the built-in kinds with the
class that reads each back; a user's certificate class joins with
:func:`register_certificate`. The table sits above the certificate base
(:mod:`game.theory`'s ``Certificate``) and the concept classes that are
certificates too, so neither imports the other.

Examples
--------
>>> from game.theory import CERTIFICATE_KINDS, certificate_from_dict
>>> sorted(CERTIFICATE_KINDS)[:3]
['conjunction', 'decision-list', 'disjunction']
>>> certificate_from_dict({"kind": "expert", "realizable": True, "params": {"expert": 2}})
ExpertCertificate(realizable=True, expert=2, experts=None)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from game.errors import GameError, TranscriptError
from game.theory._certificates import Certificate, ExpertCertificate, HalfspaceCertificate
from game.theory.concepts import (
    Conjunction,
    DecisionList,
    Disjunction,
    FiniteClassCertificate,
    MonotoneConjunction,
)

__all__ = [
    "CERTIFICATE_KINDS",
    "certificate_class",
    "certificate_from_dict",
    "register_certificate",
]

#: The built-in kinds: ``kind`` -> the class that reads a certificate of that kind back.
CERTIFICATE_KINDS: Mapping[str, type[Certificate]] = MappingProxyType(
    {
        cls.kind: cls
        for cls in (
            HalfspaceCertificate,
            ExpertCertificate,
            FiniteClassCertificate,
            Conjunction,
            MonotoneConjunction,
            Disjunction,
            DecisionList,
        )
    }
)
_registered: dict[str, type[Certificate]] = {}


def register_certificate(cls: type[Certificate], *, replace: bool = False) -> type[Certificate]:
    """Let transcripts read back a user's certificate class, by its ``kind``.

    Parameters
    ----------
    cls : type
        A subclass of :class:`~game.theory.Certificate` with a ``kind`` of its own
        and the ``params``/``from_params`` pair that rebuilds it.
    replace : bool, default False
        Allow replacing an earlier registration of the same kind.

    Raises
    ------
    GameError
        When ``cls`` is no certificate class, or its kind is a built-in one or
        (without ``replace``) already registered.

    Examples
    --------
    >>> from game.theory import Certificate, certificate_class
    >>> class Always(Certificate):
    ...     kind = "always-plus"
    >>> _ = register_certificate(Always)
    >>> certificate_class("always-plus") is Always
    True
    >>> _ = _registered.pop("always-plus")  # leave the table as it was
    """
    if not isinstance(cls, type) or not issubclass(cls, Certificate):
        raise GameError(f"register_certificate expects a Certificate subclass, got {cls!r}")
    kind = vars(cls).get("kind")
    if not isinstance(kind, str) or not kind:
        raise GameError(f"{cls.__qualname__} declares no kind of its own (a class attribute)")
    if kind in CERTIFICATE_KINDS:
        raise GameError(f"certificate kind {kind!r} is built in; choose another kind")
    if kind in _registered and _registered[kind] is not cls and not replace:
        raise GameError(f"certificate kind {kind!r} is already registered (pass replace=True)")
    _registered[kind] = cls
    return cls


def certificate_class(kind: str) -> type[Certificate] | None:
    """The class that reads certificates of ``kind`` back, or None when none is known."""
    return CERTIFICATE_KINDS.get(kind) or _registered.get(kind)


def certificate_from_dict(data: dict[str, Any]) -> Certificate:
    """Rebuild a certificate from :meth:`~game.theory.Certificate.to_dict` output.

    Raises
    ------
    TranscriptError
        When the kind is unknown or the parameters do not fit it.

    Examples
    --------
    >>> certificate_from_dict({"kind": "oracle", "realizable": True, "params": {}})
    Traceback (most recent call last):
    ...
    game.errors.TranscriptError: certificate: unknown kind 'oracle'; expected one of halfspace, ...
    """
    if not isinstance(data, dict):
        raise TranscriptError(f"certificate: expected an object, got {type(data).__name__}")
    kind = data.get("kind")
    cls = certificate_class(kind) if isinstance(kind, str) else None
    if kind is not None and cls is None:
        known = ", ".join([*CERTIFICATE_KINDS, *_registered])
        raise TranscriptError(
            f"certificate: unknown kind {kind!r}; expected one of {known} "
            "(a user's kind joins with game.theory.register_certificate)"
        )
    try:
        return cls.from_params(data["params"], bool(data["realizable"]))
    except KeyError as exc:
        raise TranscriptError(f"certificate: missing key {exc}") from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise TranscriptError(f"certificate of kind {kind!r}: {exc}") from None
