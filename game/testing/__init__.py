"""Testing players and inputs: conformance checks, the fuzzer, ``selfcheck``.

Conformance checks hold for any learner or adversary, the project's and
users' own. Each is a public function that returns None when the player passes
and raises :class:`CheckFailure` with one line naming the player, the round and
the value when it does not: ``check_learner_*`` (``declares``, ``predictions``,
``update_returns_bool``, ``update_state``, ``same_seed``, ``fresh_instances``,
``no_mutation``, ``pickling``, ``deterministic``, ``snapshot``, ``bound``) and
``check_adversary_*`` (``declares``, ``instances``, ``no_mutation``,
``history``, ``labels``, ``certificate``, ``same_seed``, ``pickling``,
``lower_bound``). Their games last from 128 to 512 rounds, a length drawn from
each check's seed, so that faults that show late in a game are reached;
players are copied mid-game (pickled and deep-copied) and must continue as the
originals; ``update``'s answer is held against the learner's state, a claimed
bound against the games played.
:func:`check_learner` and :func:`check_adversary` yield every check of one
player as a named :class:`Check`; :func:`parametrize_with_checks` makes them one
pytest test each; :func:`registered_checks` covers every registered player.

The fuzzer makes malformed scenarios and damaged transcripts and checks that
they are refused with the right error; :func:`selfcheck` runs both over the
registry. Hypothesis strategies of games live in
:mod:`game.testing.strategies` (the ``testing`` extra); this package does not
import hypothesis.

Examples
--------
>>> from game.testing import check_learner, parametrize_with_checks
>>> from learners import Winnow
>>> @parametrize_with_checks(check_learner(lambda rng: Winnow()))
... def test_my_learner(check):
...     check()
"""

from game.testing._adversary_checks import (
    check_adversary_certificate,
    check_adversary_declares,
    check_adversary_labels,
    check_adversary_lower_bound,
    check_adversary_pickling,
    check_adversary_same_seed,
)
from game.testing._adversary_records import (
    check_adversary_history,
    check_adversary_instances,
    check_adversary_no_mutation,
)
from game.testing._checks import (
    Check,
    CheckResult,
    check_adversary,
    check_learner,
    parametrize_with_checks,
    registered_checks,
    run_checks,
)
from game.testing._failure import CheckFailure
from game.testing._fuzz import (
    check_scenario_refused,
    check_transcript_refused,
    damaged_transcript,
    malformed_scenario,
)
from game.testing._learner_checks import (
    check_learner_declares,
    check_learner_deterministic,
    check_learner_fresh_instances,
    check_learner_no_mutation,
    check_learner_pickling,
    check_learner_predictions,
    check_learner_same_seed,
    check_learner_update_returns_bool,
)
from game.testing._learner_claims import (
    check_learner_bound,
    check_learner_snapshot,
    check_learner_update_state,
)
from game.testing._reference import RandomLearner, reference_adversary
from game.testing._selfcheck import SelfcheckReport, selfcheck

__all__ = [
    "Check",
    "CheckFailure",
    "CheckResult",
    "RandomLearner",
    "SelfcheckReport",
    "check_adversary",
    "check_adversary_certificate",
    "check_adversary_declares",
    "check_adversary_history",
    "check_adversary_instances",
    "check_adversary_labels",
    "check_adversary_lower_bound",
    "check_adversary_no_mutation",
    "check_adversary_pickling",
    "check_adversary_same_seed",
    "check_learner",
    "check_learner_bound",
    "check_learner_declares",
    "check_learner_deterministic",
    "check_learner_fresh_instances",
    "check_learner_no_mutation",
    "check_learner_pickling",
    "check_learner_predictions",
    "check_learner_same_seed",
    "check_learner_snapshot",
    "check_learner_update_returns_bool",
    "check_learner_update_state",
    "check_scenario_refused",
    "check_transcript_refused",
    "damaged_transcript",
    "malformed_scenario",
    "parametrize_with_checks",
    "reference_adversary",
    "registered_checks",
    "run_checks",
    "selfcheck",
]
