"""What the framework knows of a player: the fields it declares (generator,
data, scenario-supplied), the registry of names, and the lockstep protocol.
"""

from game.players._lockstep import LockstepLearner, Source, kernel_for, rounds_of
from game.players._params import (
    DATA_SUFFIXES,
    data_field,
    generator,
    integer_at_least,
    is_data_field,
    one_of,
    positive,
    real_in,
    rng_field,
)
from game.players._registry import (
    BUILTIN,
    ENTRY_POINT_GROUP,
    describe_player,
    learners_for,
    lookup,
    name_of,
    names,
    parameters,
    register,
    role_of,
)

__all__ = [
    "BUILTIN",
    "DATA_SUFFIXES",
    "ENTRY_POINT_GROUP",
    "LockstepLearner",
    "Source",
    "data_field",
    "describe_player",
    "generator",
    "integer_at_least",
    "is_data_field",
    "kernel_for",
    "learners_for",
    "lookup",
    "name_of",
    "names",
    "one_of",
    "parameters",
    "positive",
    "real_in",
    "register",
    "rng_field",
    "role_of",
    "rounds_of",
]
