"""Concepts and concept classes: the targets learners chase and adversaries certify.

Submodules hold one family each; this package re-exports their public names.
"""

from game.theory.concepts._boolean import (
    CONCEPT_KINDS,
    BooleanConcept,
    Conjunction,
    DecisionList,
    Disjunction,
    Literal,
    MonotoneConjunction,
    parse_concept,
    parse_literal,
    random_concept,
)
from game.theory.concepts._finite import (
    BUILDERS,
    FiniteClass,
    FiniteClassCertificate,
    all_functions,
    as_finite_class,
    bit_vectors,
    build_class,
    conjunctions,
    decision_lists,
    intervals,
    monotone_conjunctions,
    parities,
    point_index,
    singletons,
    thresholds,
)

__all__: list[str] = [
    "BUILDERS",
    "CONCEPT_KINDS",
    "BooleanConcept",
    "Conjunction",
    "DecisionList",
    "Disjunction",
    "FiniteClass",
    "FiniteClassCertificate",
    "Literal",
    "MonotoneConjunction",
    "all_functions",
    "as_finite_class",
    "bit_vectors",
    "build_class",
    "conjunctions",
    "decision_lists",
    "intervals",
    "monotone_conjunctions",
    "parities",
    "parse_concept",
    "parse_literal",
    "point_index",
    "random_concept",
    "singletons",
    "thresholds",
]
