"""The record of a game: :class:`Transcript` and :class:`Round`, the JSON Lines
file (writer and reader), the digest, and the referee's own copy of the
instances (:class:`InstanceColumn`).
"""

from game.transcript._columns import (
    CompletedInstances,
    InstanceColumn,
    NotNumbers,
    instance_fault,
)
from game.transcript._digest import canonical, digest_columns
from game.transcript._format import FORMAT, VERSION
from game.transcript._transcript import (
    Round,
    Transcript,
    TranscriptWriter,
    lower_bound_hypotheses,
    versions,
)

__all__ = [
    "FORMAT",
    "VERSION",
    "CompletedInstances",
    "InstanceColumn",
    "NotNumbers",
    "Round",
    "Transcript",
    "TranscriptWriter",
    "canonical",
    "digest_columns",
    "instance_fault",
    "lower_bound_hypotheses",
    "versions",
]
