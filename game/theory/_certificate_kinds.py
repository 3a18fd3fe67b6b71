"""The kinds of certificate, reading one back, and the referee's copy of one.

One static table, :data:`CERTIFICATE_KINDS`, lists the built-in kinds with the
class that reads each back; a user's certificate class joins with
:func:`register_certificate`. The table sits above the certificate base
(:mod:`game.theory`'s ``Certificate``) and the concept classes that are
certificates too, so neither imports the other.

Two paths rebuild a certificate through the table, sharing one lookup:
:func:`certificate_from_dict` reads a file's certificate (a
:class:`~game.errors.TranscriptError` when it cannot), and :func:`referee_copy`
rebuilds what an adversary handed over, so that the referee judges its own
frozen copy, of the class the table names for the kind, never the object it was
given (a :class:`~game.errors.CertificateError` when it cannot).

Examples
--------
>>> from game.theory import CERTIFICATE_KINDS, certificate_from_dict
>>> sorted(CERTIFICATE_KINDS)[:3]
['conjunction', 'decision-list', 'disjunction']
>>> certificate_from_dict({"kind": "expert", "realizable": True, "params": {"expert": 2}})
ExpertCertificate(realizable=True, expert=2, experts=None)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from game.errors import CertificateError, GameError, TranscriptError
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
    "referee_copy",
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
    """Let transcripts read back, and the referee rebuild, a user's certificate class.

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
    """The class that rebuilds certificates of ``kind``, or None when none is known.

    The static table :data:`CERTIFICATE_KINDS` first, then the kinds registered
    with :func:`register_certificate`.

    Examples
    --------
    >>> certificate_class("halfspace").__name__, certificate_class("oracle")
    ('HalfspaceCertificate', None)
    """
    if not isinstance(kind, str):
        return None
    return CERTIFICATE_KINDS.get(kind) or _registered.get(kind)


def _one_line(text: Any) -> str:
    return " ".join(str(text).split())


def _rebuild(data: Any, error: type[GameError], where: str) -> Certificate:
    """The certificate ``data`` (a :meth:`~Certificate.to_dict` form) describes, built anew.

    The one lookup of both paths: the kind names the class (the static table
    first, then user registrations), whose ``from_params`` rebuilds it; the
    description is ignored. Every failure is an ``error`` starting with ``where``.
    """
    if not isinstance(data, dict):
        raise error(f"{where}: expected an object, got {type(data).__name__}")
    kind = data.get("kind")
    if not isinstance(kind, str):
        raise error(f"{where}: its kind must be a string, got {kind!r}")
    cls = certificate_class(kind)
    if cls is None:
        known = ", ".join([*CERTIFICATE_KINDS, *_registered])
        raise error(
            f"{where}: unknown kind {kind!r}; expected one of {known} "
            "(a user's kind joins with game.theory.register_certificate)"
        )
    for key in ("realizable", "params"):
        if key not in data:
            raise error(f"{where}: missing key {key!r}")
    realizable, params = data["realizable"], data["params"]
    if not isinstance(realizable, bool):
        raise error(f"{where}: realizable must be true or false, got {realizable!r}")
    if not isinstance(params, dict):
        raise error(f"{where}: params must be an object, got {type(params).__name__}")
    try:
        certificate = cls.from_params(params, realizable)
    except KeyError as exc:
        raise error(f"{where}: kind {kind!r} needs the parameter {exc}") from None
    except Exception as exc:
        raise error(
            f"{where}: kind {kind!r} cannot be rebuilt from its parameters: "
            f"{type(exc).__name__}: {_one_line(exc)}"
        ) from None
    if type(certificate) is not cls:
        raise error(
            f"{where}: {cls.__qualname__}.from_params, the class of kind {kind!r}, returned "
            f"a {type(certificate).__qualname__}"
        )
    return certificate


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
    return _rebuild(data, TranscriptError, "certificate")


def _who(certificate: Any) -> str:
    """``certificate CLASS (kind KIND)``, read without trusting the object."""
    try:
        cls = type(certificate)
        name = cls.__qualname__
        kind = getattr(cls, "kind", None)
        return f"certificate {name} (kind {kind!r})"
    except Exception:
        return "a certificate"


def referee_copy(certificate: Certificate) -> Certificate:
    """The referee's own copy of a certificate a player handed over.

    The certificate is serialised with its ``to_dict()``, round-tripped through
    JSON (so the copy shares no object with what was handed over, and NaN or
    infinite parameters are refused), and rebuilt by the ``from_params`` of the
    class registered for its kind: the static table
    :data:`CERTIFICATE_KINDS` first, then user registrations
    (:func:`register_certificate`). The copy's type is the table's class, never
    the type of the object handed over, so a subclass of a built-in class that
    overrides ``agrees``, ``labels``, ``margin`` or ``describe`` is judged by
    the built-in class. The description in the dict is ignored.

    Parameters
    ----------
    certificate : Certificate
        What the player handed over.

    Returns
    -------
    Certificate
        A new certificate of the class registered for its kind.

    Raises
    ------
    CertificateError
        Naming the certificate's class and kind and what went wrong: ``to_dict``
        raised or returned something that is not a JSON-ready dict with a
        string kind, the kind is unknown, or its class could not rebuild it.

    Examples
    --------
    >>> import numpy as np
    >>> from game.theory import HalfspaceCertificate, first_disagreement
    >>> class Liar(HalfspaceCertificate):
    ...     def agrees(self, instances, labels):
    ...         return np.ones(len(labels), dtype=bool)
    >>> liar = Liar([1.0, 0.0])
    >>> X, y = np.array([[1.0, 0.0], [2.0, 1.0]]), np.array([1, -1])
    >>> first_disagreement(liar, X, y) is None   # the object judges itself: it lies
    True
    >>> copy = referee_copy(liar)
    >>> type(copy).__name__, first_disagreement(copy, X, y)
    ('HalfspaceCertificate', 1)
    >>> class Unknown(HalfspaceCertificate):
    ...     kind = "oracle"
    >>> referee_copy(Unknown([1.0]))
    Traceback (most recent call last):
    ...
    game.errors.CertificateError: certificate Unknown (kind 'oracle'): unknown kind 'oracle'; ...
    """
    if not isinstance(certificate, Certificate):
        raise CertificateError(
            f"expected a game.theory.Certificate, got a {type(certificate).__qualname__}"
        )
    who = _who(certificate)
    try:
        data = certificate.to_dict()
    except Exception as exc:
        raise CertificateError(
            f"{who}: to_dict() raised {type(exc).__name__}: {_one_line(exc)}"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        got = f"kind {data.get('kind')!r}" if isinstance(data, dict) else f"a {type(data).__name__}"
        raise CertificateError(f"{who}: to_dict() must return a dict with a string kind, got {got}")
    try:
        text = json.dumps(data, allow_nan=False)
    except Exception as exc:
        raise CertificateError(
            f"{who}: to_dict() is not JSON-ready (finite numbers, strings, lists and "
            f"dicts only): {type(exc).__name__}: {_one_line(exc)}"
        ) from None
    return _rebuild(json.loads(text), CertificateError, who)
