"""The memory a game needs, estimated before round 1 from what its players declare.

An adversary declares its sizes with a class method
``footprint(params, rounds) -> Footprint``: the bytes of one instance it
presents, the entries of an instance, the bytes it allocates itself, the most
rounds it plays, and the parameter that sets them. A learner may declare the
bytes of its own state the same way (``footprint(params, rounds)``, where only
``own`` counts); otherwise its state is taken as :data:`LEARNER_BYTES_PER_ENTRY`
per instance entry (a weight and a mask per expert, a weight per coordinate).

:func:`estimate` adds them with the record the engine keeps of every round and
:func:`check_fits` compares the total with :func:`available_memory`, refusing a
game that cannot fit with a :class:`~game.errors.ScenarioError` naming the key
that makes it large (``rounds``, ``adversary.n``, ``adversary.dimension``).

The constants below were measured with ``tracemalloc`` (the growth of the peak
between 20,000 and 60,000 rounds of :func:`game.play`, so a per-round cost):
the Perceptron against ``separable-stream`` costs 206 B a round at d = 20
(160 B of instance) and 935 B at d = 100 (800 B of instance); Weighted
Majority against ``expert-stream`` costs 156 B a round at N = 10 (10 B of
advice recorded, 10 B held by the stream) and 2,003 B at N = 1,000. So the
record costs the instance's bytes plus about 150 B a round.

Available memory is ``MemAvailable`` of ``/proc/meminfo`` on Linux (what can be
allocated without swapping), else ``os.sysconf("SC_AVPHYS_PAGES")`` times the
page size (free pages: an underestimate where caches are large); where neither
can be read nothing is refused.

A game whose record would take more than half the available memory is played
with its rounds on disk (:func:`choose_keep`, ``keep="disk"`` of
:func:`game.play`): its memory is then what the players hold plus
``DISK_GAME_BYTES``, and its record must fit the free space of the disk
that keeps it (``DISK_ROUND_BYTES`` a round beside the instance).

Examples
--------
>>> from game.players import estimate, Footprint
>>> e = estimate(None, {}, None, {}, rounds=10**6)
>>> e.bytes, e.key
(150000000, 'rounds')
>>> e = estimate(None, {}, None, {}, rounds=10**9)
>>> check_fits(e, available=8 * 2**30)
Traceback (most recent call last):
...
game.errors.ScenarioError: rounds: rounds = 1,000,000,000 needs about 150 GB, 8.6 GB available
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from typing import Any

import attrs

from game.errors import ScenarioError

__all__ = [
    "DISK_GAME_BYTES",
    "DISK_ROUND_BYTES",
    "LDIM_BYTES_PER_CELL",
    "LDIM_LONG_CELLS",
    "LEARNER_BYTES_PER_ENTRY",
    "ROUND_BYTES",
    "Estimate",
    "Footprint",
    "available_memory",
    "check_fits",
    "choose_keep",
    "estimate",
    "format_bytes",
    "ldim_estimate",
]

#: Bytes the engine's record of one round costs beyond the instance's own bytes
#: (prediction, label, update flag, loss and the columns' overhead; measured, see above).
ROUND_BYTES = 150

#: Bytes a game with its rounds on disk holds beyond what its players hold: the
#: interpreter, the first mappings of its columns, and the blocks its end reads at a time.
DISK_GAME_BYTES = 200 * 10**6

#: Bytes a round takes on disk beside its instance: prediction, label and update.
DISK_ROUND_BYTES = 10

#: Bytes the Littlestone-dimension search holds per cell of the class
#: (hypotheses × points): tracemalloc peaks of ``LdimEngine.ldim`` were 2.5 B a
#: cell for singletons(4096), 3.8 for thresholds(4096), 5.3 for intervals(256)
#: and 12 for conjunctions(8); a 295k × 768 class took 2.3 GB, 10 B a cell.
LDIM_BYTES_PER_CELL = 10

#: Cells from which the search is announced as long (it took 77 s at 2.3 × 10⁸).
LDIM_LONG_CELLS = 10**8

#: An instance this many times ``ROUND_BYTES`` makes its size, not the rounds, the key named.
_LARGE_INSTANCE = 8

#: Bytes of a learner's state per instance entry, unless it declares its own:
#: Halving against ``halving-lower-bound`` at n = 20 peaks at 88 B per expert
#: (tracemalloc), of which 20 B is the recorded advice and 24 B the adversary's.
LEARNER_BYTES_PER_ENTRY = 48


@attrs.frozen
class Footprint:
    """A player's declared sizes for one game.

    Parameters
    ----------
    instance : int
        Bytes of one instance as the record keeps it (an adversary's).
    entries : int
        Entries of one instance (coordinates, experts, bits).
    own : int
        Bytes the player itself allocates (drawn blocks, advice tables, state).
    rounds : int or None
        The most rounds the player plays (None: as many as the game allows).
    key : str
        The parameter that sets these sizes, named in a refusal.

    Examples
    --------
    >>> Footprint(instance=80, entries=10, key="dimension").own
    0
    """

    instance: int = 0
    entries: int = 0
    own: int = 0
    rounds: int | None = None
    key: str = "rounds"


@attrs.frozen
class Estimate:
    """The estimated bytes of a game, and the key that makes it large.

    Examples
    --------
    >>> Estimate(bytes=3 * 10**9, key="adversary.n", what="n = 26").describe()
    'n = 26 needs about 3.0 GB'
    """

    bytes: int
    key: str
    what: str
    record: int = 0  # of ``bytes``, what the record of the rounds takes (on disk with keep="disk")
    disk: int = 0  # the bytes the rounds take on disk with keep="disk"

    def describe(self) -> str:
        """One phrase: what needs how much."""
        return f"{self.what} needs about {format_bytes(self.bytes)}"


def format_bytes(n: float) -> str:
    """Bytes in decimal units, two significant digits.

    Examples
    --------
    >>> format_bytes(4.9e9), format_bytes(310), format_bytes(2**31)
    ('4.9 GB', '310 B', '2.1 GB')
    """
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            value = n / scale
            return f"{value:.1f} {unit}" if value < 10 else f"{value:.0f} {unit}"
    return f"{int(n)} B"


def available_memory() -> int | None:
    """Bytes that can be allocated now: ``MemAvailable`` on Linux, free pages elsewhere.

    None when the machine does not say.

    Examples
    --------
    >>> m = available_memory()
    >>> m is None or m > 0
    True
    """
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def _footprint(cls: Any, params: Mapping[str, Any], rounds: int) -> Footprint | None:
    declare = getattr(cls, "footprint", None)
    if cls is None or not callable(declare):
        return None
    try:
        found = declare(dict(params), rounds)
    except Exception:  # a size it cannot state is refused by its constructor instead
        return None
    return found if isinstance(found, Footprint) else None


def estimate(
    learner: Any,
    learner_params: Mapping[str, Any],
    adversary: Any,
    adversary_params: Mapping[str, Any],
    *,
    rounds: int,
) -> Estimate:
    """The memory a game of these player classes and parameters needs, before building them.

    The record costs ``ROUND_BYTES`` plus the instance's bytes on each round
    played (the rounds limit, or fewer when the adversary declares it ends
    sooner); the players add what they allocate themselves. The key named is
    the adversary's size parameter when it sets the game's length, when what
    the players hold outweighs the record, or when one instance is at least
    eight times a round's fixed cost; else ``rounds``.

    Parameters
    ----------
    learner, adversary : type or None
        The player classes (None: nothing declared).
    learner_params, adversary_params : mapping
        Their constructor keywords.
    rounds : int
        The game's rounds limit.

    Examples
    --------
    >>> from adversaries import HalvingLowerBound
    >>> from learners.experts import Halving
    >>> e = estimate(Halving, {}, HalvingLowerBound, {"n": 26}, rounds=64)
    >>> e.key, e.describe()
    ('adversary.n', 'n = 26 (67,108,864 experts) needs about 6.6 GB')
    """
    adv = _footprint(adversary, adversary_params, rounds) or Footprint()
    played = rounds if adv.rounds is None else min(rounds, adv.rounds)
    learned = _footprint(learner, learner_params, rounds)
    learner_own = learned.own if learned is not None else LEARNER_BYTES_PER_ENTRY * adv.entries
    per_round = played * (ROUND_BYTES + adv.instance)
    on_disk = played * (DISK_ROUND_BYTES + adv.instance)
    held = adv.own + learner_own
    total = per_round + held
    # the size parameter is named when it sets the game's length, when what the
    # players hold outweighs the record, or when one instance outweighs a round's
    # fixed cost many times over; otherwise the rounds make the game large
    sized = (
        (adv.rounds is not None and played == adv.rounds)
        or held > per_round
        or adv.instance >= _LARGE_INSTANCE * ROUND_BYTES
    )
    if sized and adv.key != "rounds":
        value = adversary_params.get(adv.key)
        what = f"{adv.key} = {value}" if value is not None else adv.key
        if adv.entries and adv.key in ("n", "experts"):
            what += f" ({adv.entries:,} experts)" if adv.key == "n" else ""
        return Estimate(
            bytes=total, key=f"adversary.{adv.key}", what=what, record=per_round, disk=on_disk
        )
    return Estimate(
        bytes=total, key="rounds", what=f"rounds = {rounds:,}", record=per_round, disk=on_disk
    )


def _disk_problem(found: Estimate, available: int | None, folder: str) -> str | None:
    """Why the game cannot keep its rounds on disk in ``folder``, or None when it can."""
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        free = None
    if free is not None and found.disk > free:
        return (
            f"its rounds need about {format_bytes(found.disk)} of disk, "
            f"{format_bytes(free)} free in {folder}"
        )
    needed = found.bytes - found.record + DISK_GAME_BYTES
    if available is not None and needed > available:
        return (
            f"with its rounds on disk it needs about {format_bytes(needed)}, "
            f"{format_bytes(available)} available"
        )
    return None


def check_fits(
    found: Estimate,
    *,
    available: int | None = None,
    where: str = "",
    keep: str = "memory",
    folder: str | os.PathLike | None = None,
) -> Estimate:
    """Refuse a game that cannot fit the machine's available memory (or, on disk, its disk).

    Parameters
    ----------
    found : Estimate
        From :func:`estimate`.
    available : int, optional
        Bytes available (default: :func:`available_memory`; None when unknown: nothing refused).
    where : str
        Put before the key in the error (a scenario's path).
    keep : {"memory", "disk"}, default "memory"
        Where the game keeps its rounds (:func:`game.play`): on disk the memory
        needed is what the players hold plus ``DISK_GAME_BYTES``, and the
        rounds must fit the free space of ``folder``.
    folder : path-like, optional
        The folder that keeps the rounds on disk (default: the system's temporary folder).

    Raises
    ------
    ScenarioError
        Naming the key and the estimate: "adversary.n: n = 28 needs about 19 GB, 8 GB available".

    Examples
    --------
    >>> e = estimate(None, {}, None, {}, rounds=10**8)  # 15 GB in memory, 1 GB on disk
    >>> check_fits(e, available=8 * 2**30, keep="disk", folder="/") is e
    True
    """
    if available is None:
        available = available_memory()
    prefix = f"{where}: " if where else ""
    if keep == "disk":
        folder = tempfile.gettempdir() if folder is None else os.fspath(folder)
        problem = _disk_problem(found, available, folder)
        if problem is not None:
            raise ScenarioError(f"{prefix}{found.key}: {found.what}: {problem}")
        return found
    if available is not None and found.bytes > available:
        raise ScenarioError(
            f"{prefix}{found.key}: {found.describe()}, {format_bytes(available)} available"
        )
    return found


def choose_keep(
    found: Estimate,
    *,
    available: int | None = None,
    folder: str | os.PathLike | None = None,
    where: str = "",
) -> str:
    """Where a game keeps its rounds: on disk when in memory they would take over half of it.

    ``"memory"`` when the game fits the available memory with its record
    taking at most half of it; else ``"disk"`` when it fits that way (the
    players' own memory, and the rounds on the disk of ``folder``); else
    ``"memory"`` if it fits at all; else a :class:`~game.errors.ScenarioError`
    saying what each way needs.

    Parameters
    ----------
    found : Estimate
        From :func:`estimate`.
    available : int, optional
        Bytes available (default: :func:`available_memory`; None when unknown: in memory).
    folder : path-like, optional
        The folder that keeps the rounds on disk (default: the system's temporary folder).
    where : str
        Put before the key in the error (a scenario's path).

    Examples
    --------
    >>> e = estimate(None, {}, None, {}, rounds=10**8)
    >>> choose_keep(e, available=8 * 10**9, folder="/"), choose_keep(e, available=64 * 10**9)
    ('disk', 'memory')
    >>> choose_keep(estimate(None, {}, None, {}, rounds=10**9), available=10**8, folder="/")
    Traceback (most recent call last):
    ...
    game.errors.ScenarioError: rounds: rounds = 1,000,000,000 needs about 150 GB, 100 MB ...
    """
    if available is None:
        available = available_memory()
    if available is None:
        return "memory"
    fits = found.bytes <= available
    if fits and 2 * found.record <= available:
        return "memory"
    folder = tempfile.gettempdir() if folder is None else os.fspath(folder)
    problem = _disk_problem(found, available, folder)
    if problem is None:
        return "disk"
    if fits:
        return "memory"
    prefix = f"{where}: " if where else ""
    raise ScenarioError(
        f"{prefix}{found.key}: {found.describe()}, {format_bytes(available)} available; {problem}"
    )


def ldim_estimate(n_hypotheses: int, n_points: int) -> Estimate:
    """The memory the Littlestone-dimension search of a class needs: about 10 B a cell.

    The key named is ``CLASS`` (the argument of ``python -m game ldim``).

    Examples
    --------
    >>> ldim_estimate(295_000, 768).describe()
    'a class of 295,000 hypotheses × 768 points needs about 2.3 GB'
    """
    what = f"a class of {n_hypotheses:,} hypotheses × {n_points:,} points"
    return Estimate(bytes=LDIM_BYTES_PER_CELL * n_hypotheses * n_points, key="CLASS", what=what)
