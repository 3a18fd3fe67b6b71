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
from game.transcript._digest import (
    GAME_FIELDS,
    canonical,
    canonical_text,
    digest_columns,
    game_fields,
)
from game.transcript._format import FORMAT, VERSION
from game.transcript._spill import DiskColumn, DiskFile
from game.transcript._transcript import (
    Round,
    Transcript,
    TranscriptWriter,
    lower_bound_hypotheses,
    versions,
)

__all__ = [
    "FORMAT",
    "GAME_FIELDS",
    "VERSION",
    "CompletedInstances",
    "DiskColumn",
    "DiskFile",
    "InstanceColumn",
    "NotNumbers",
    "Round",
    "Transcript",
    "TranscriptWriter",
    "canonical",
    "canonical_text",
    "digest_columns",
    "game_fields",
    "instance_fault",
    "lower_bound_hypotheses",
    "versions",
]
