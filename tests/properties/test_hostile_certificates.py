"""Hostile certificates: whatever a certificate's own methods say, the referee's copy decides.

For random honest certificates of every built-in kind, the referee's copy
(``referee_copy``) equals the certificate, and ``first_disagreement`` on it
equals a brute-force check written here from the definitions (exact rational
arithmetic for halfspaces). For random hostile subclasses, overriding any of
``agrees``, ``labels``, ``margin``, ``margins``, ``describe`` or ``check_fits``
with a lie, the verdict on the referee's copy is the honest class's verdict;
a ``to_dict`` that lies about what it is, is refused. Random arrays of any
shape and dtype are judged only when they fit the certificate's kind.
"""

import math
from fractions import Fraction

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from game.errors import CertificateError
from game.testing.strategies import any_finite_class, boolean_concepts, realizable_sequences
from game.theory import (
    ExpertCertificate,
    HalfspaceCertificate,
    first_disagreement,
    referee_copy,
)
from game.theory.concepts import (
    Conjunction,
    DecisionList,
    Disjunction,
    FiniteClassCertificate,
)

SEEDS = st.integers(0, 2**32 - 1)


# -- brute force, from the definitions -------------------------------------------------


def exact_dot(w, x) -> Fraction:
    return sum(
        (Fraction(float(a)) * Fraction(float(b)) for a, b in zip(w, x, strict=True)), Fraction(0)
    )


def brute_halfspace(c, X, y):
    """First t with y_t·(w·x_t) ≤ 0, computed exactly."""
    for t, (x, label) in enumerate(zip(X, y, strict=True)):
        if label * exact_dot(c.weights, x) <= 0:
            return t
    return None


def brute_margin(c, X, y) -> float:
    norm = Fraction(math.hypot(*map(float, c.weights)))
    return min(float(label * exact_dot(c.weights, x) / norm) for x, label in zip(X, y, strict=True))


def brute_expert(c, X, y):
    for t, label in enumerate(y):
        said = 1 if X[t][c.expert] >= 0 else -1
        if said != label:
            return t
    return None


def brute_finite(c, X, y):
    for t, (x, label) in enumerate(zip(X, y, strict=True)):
        if int(c.row[int(x)]) != int(label):
            return t
    return None


def literal_true(literal, x) -> bool:
    return bool(x[literal.variable]) != literal.negated


def concept_value(c, x) -> bool:
    if isinstance(c, Conjunction):
        return all(literal_true(lit, x) for lit in c.literals)
    if isinstance(c, Disjunction):
        return any(literal_true(lit, x) for lit in c.literals)
    assert isinstance(c, DecisionList)
    for lit, label in c.rules:
        if literal_true(lit, x):
            return label == 1
    return c.default == 1


def brute_boolean(c, X, y):
    for t, (x, label) in enumerate(zip(X, y, strict=True)):
        if (1 if concept_value(c, x) else -1) != int(label):
            return t
    return None


def brute(c, X, y):
    if len(y) == 0:
        return None
    for kind, check in BRUTE:
        if isinstance(c, kind):
            return check(c, X, y)
    raise AssertionError(f"no brute force for {type(c)}")


BRUTE = [
    (HalfspaceCertificate, brute_halfspace),
    (ExpertCertificate, brute_expert),
    (FiniteClassCertificate, brute_finite),
    ((Conjunction, Disjunction, DecisionList), brute_boolean),
]


# -- honest games of every kind --------------------------------------------------------


def flipped(draw, gen, y):
    """The labels, some flipped (none, a few, or many), as int64."""
    share = draw(st.sampled_from([0.0, 0.0, 0.05, 0.5]))
    flip = gen.uniform(size=len(y)) < share
    return np.where(flip, -np.asarray(y), y).astype(np.int64)


@st.composite
def halfspace_games(draw):
    """Weights of any scale; rows far from the hyperplane at scales 1e-170 … 1e200, rows
    exactly on it (at scales 2^-900 … 2^900) and zero rows."""
    gen = np.random.default_rng(draw(SEEDS))
    d = draw(st.integers(1, 5))
    integral = draw(st.booleans())
    if integral:  # small integers times a power of two: products are exact
        whole = gen.integers(-8, 9, size=d).astype(np.float64)
        assume(np.any(whole))
        w = np.ldexp(whole, draw(st.sampled_from([0, -800, 800, -30])))
    else:
        w = gen.normal(size=d) * 10.0 ** draw(st.sampled_from([0, -250, 250, -20]))
    c = HalfspaceCertificate(w, realizable=draw(st.booleans()))
    m = draw(st.integers(0, 12))
    v0 = w / np.max(np.abs(w))
    u = v0 / np.linalg.norm(v0)
    rows = []
    for _ in range(m):
        shape = draw(st.sampled_from(["far", "far", "far", "on", "zero"]))
        if shape == "far":
            v = gen.normal(size=d)
            if abs(v @ u) < 1e-3 * np.linalg.norm(v):
                v = v + u  # well off the hyperplane
            rows.append(v * 10.0 ** draw(st.sampled_from([0, 200, -170, 150, -150, 3])))
        elif shape == "on" and integral and d >= 2:
            i, j = gen.choice(d, size=2, replace=False)
            x = np.zeros(d)
            k = draw(st.sampled_from([0, 7, -40, 600, -600, 900, -900]))
            x[i], x[j] = np.ldexp(whole[j], k), np.ldexp(-whole[i], k)  # w·x = 0 exactly
            rows.append(x)
        else:
            rows.append(np.zeros(d))
    X = np.array(rows, dtype=np.float64).reshape(m, d)
    exact = [exact_dot(w, x) for x in X]
    labels = np.array([1 if e >= 0 else -1 for e in exact], dtype=np.int64)
    return c, X, flipped(draw, gen, labels)


@st.composite
def expert_games(draw):
    gen = np.random.default_rng(draw(SEEDS))
    n = draw(st.integers(1, 6))
    i = draw(st.integers(0, n - 1))
    c = ExpertCertificate(
        i, experts=draw(st.sampled_from([None, n])), realizable=draw(st.booleans())
    )
    m = draw(st.integers(0, 15))
    if draw(st.booleans()):
        X = gen.choice(np.array([-1, 1], dtype=np.int8), size=(m, n))
    else:
        X = gen.choice(np.array([-1.0, -0.5, 0.0, 0.25, 1.0]), size=(m, n))
    y = np.where(X[:, i] >= 0, 1, -1)
    return c, X, flipped(draw, gen, y)


@st.composite
def finite_games(draw):
    gen = np.random.default_rng(draw(SEEDS))
    cls = draw(any_finite_class(max_points=8))
    h = draw(st.integers(0, cls.n_hypotheses - 1))
    c = cls.certificate(h, realizable=draw(st.booleans()))
    m = draw(st.integers(0, 15))
    X = gen.integers(0, cls.n_points, size=m).astype(draw(st.sampled_from([np.int64, np.uint8])))
    return c, X, flipped(draw, gen, cls.matrix[h, X])


@st.composite
def boolean_games(draw):
    gen = np.random.default_rng(draw(SEEDS))
    c, X, y = draw(realizable_sequences(boolean_concepts(max_variables=6), max_rounds=15))
    c = type(c).from_params(c.params(), draw(st.booleans()))
    if draw(st.booleans()):
        X = X.astype(np.uint8)
    return c, X, flipped(draw, gen, y)


GAMES = st.one_of(halfspace_games(), expert_games(), finite_games(), boolean_games())


@given(GAMES)
def test_the_copy_of_an_honest_certificate_is_equal_and_judges_as_the_brute_force(game):
    c, X, y = game
    back = referee_copy(c)
    assert back == c and type(back) is type(c)
    expected = brute(c, X, y)
    assert first_disagreement(c, X, y) == expected
    assert first_disagreement(back, X, y) == expected


@given(halfspace_games())
def test_halfspace_margins_are_the_exact_margins_rounded(game):
    c, X, y = game
    back = referee_copy(c)
    if len(y) == 0:
        assert back.margin(X, y) == math.inf
        return
    expected = brute_margin(c, X, y)
    got = back.margin(X, y)
    assert math.isclose(got, expected, rel_tol=1e-9, abs_tol=0.0) or got == expected == 0.0
    assert (got > 0) == (first_disagreement(back, X, y) is None)


# -- hostile subclasses ----------------------------------------------------------------


def _always_agrees(self, instances, labels):
    return np.ones(len(labels), dtype=bool)


def _plus_labels(self, instances):
    return np.ones(len(instances), dtype=np.int8)


def _unit_margin(self, instances, labels):
    return 1.0


def _unit_margins(self, instances, labels):
    return np.ones(len(labels))


def _boast(self):
    return "a perfect target, verified"


def _fits_anything(self, instances):
    return None


LIES = {
    "agrees": _always_agrees,
    "labels": _plus_labels,
    "margin": _unit_margin,
    "margins": _unit_margins,
    "describe": _boast,
    "check_fits": _fits_anything,
}


@given(GAMES, st.sets(st.sampled_from(sorted(LIES)), min_size=1))
def test_a_hostile_subclass_is_judged_as_its_honest_class(game, lies):
    c, X, y = game
    hostile_class = type("Hostile", (type(c),), {name: LIES[name] for name in lies})
    hostile = hostile_class.from_params(c.params(), c.realizable)
    assert type(hostile) is hostile_class
    honest = brute(c, X, y)
    if "agrees" in lies and honest is not None:
        assert first_disagreement(hostile, X, y) is None  # the lie, had it been believed
    back = referee_copy(hostile)
    assert type(back) is type(c) and back == c
    assert first_disagreement(back, X, y) == honest
    assert back.describe() == c.describe()
    if isinstance(c, HalfspaceCertificate) and len(y):
        assert back.margin(X, y) == c.margin(X, y)


def _raises(self):
    raise RuntimeError("lost it")


@given(GAMES, st.sampled_from(["raise", "nan", "inf", "unknown", "not-a-dict", "numpy"]))
def test_a_to_dict_that_lies_about_what_it_is_is_refused(game, how):
    c, _, _ = game
    honest = c.to_dict()
    to_dict = {
        "raise": _raises,
        "nan": lambda self: {**honest, "params": {**honest["params"], "extra": math.nan}},
        "inf": lambda self: {**honest, "params": {"weights": [math.inf]}},
        "unknown": lambda self: {**honest, "kind": "tests-" + honest["kind"]},
        "not-a-dict": lambda self: [honest],
        "numpy": lambda self: {**honest, "realizable": np.bool_(True)},
    }[how]
    hostile = type("Hostile", (type(c),), {"to_dict": to_dict}).from_params(
        c.params(), c.realizable
    )
    try:
        referee_copy(hostile)
    except CertificateError as exc:
        message = str(exc)
        assert "\n" not in message and "Hostile" in message and repr(c.kind) in message
    else:
        raise AssertionError(f"a to_dict that lies ({how}) was believed")


# -- arrays of any shape and dtype -----------------------------------------------------


def fits(c, X) -> bool:
    """Whether rounds X are of c's kind, from the kinds' definitions."""
    if X.ndim >= 1 and X.shape[0] == 0:
        return True
    if isinstance(c, HalfspaceCertificate):
        return (
            X.ndim == 2
            and X.shape[1] == c.weights.size
            and X.dtype.kind in "iuf"
            and bool(np.all(np.isfinite(X)))
        )
    if isinstance(c, ExpertCertificate):
        n = c.experts if c.experts is not None else c.expert + 1
        wide = X.ndim == 2 and (X.shape[1] == n if c.experts is not None else X.shape[1] >= n)
        return wide and X.dtype.kind in "iuf" and bool(np.all(np.abs(X) <= 1))
    if isinstance(c, FiniteClassCertificate):
        return X.ndim == 1 and X.dtype.kind in "iu" and bool(np.all((X >= 0) & (X < c.row.size)))
    return (
        X.ndim == 2
        and X.shape[1] == c.variables
        and X.dtype.kind in "biu"
        and bool(np.all((X == 0) | (X == 1)))
    )


@st.composite
def any_rounds(draw):
    gen = np.random.default_rng(draw(SEEDS))
    ndim = draw(st.integers(0, 3))
    shape = tuple(draw(st.integers(0, 6)) for _ in range(ndim))
    dtype = draw(st.sampled_from([np.float64, np.int64, np.uint8, np.int8, np.bool_]))
    values = gen.choice(np.array([0, 1, -1, 2, 0.5, np.nan]), size=shape)
    if np.dtype(dtype).kind != "f":
        values = np.nan_to_num(values).astype(np.int64)
    with np.errstate(invalid="ignore"):
        return values.astype(dtype)


@given(GAMES, any_rounds())
def test_rounds_of_any_shape_are_judged_only_when_they_fit(game, X):
    c, _, _ = game
    y = np.ones(X.shape[0] if X.ndim else 1, dtype=np.int64)
    if fits(c, X):
        assert first_disagreement(c, X, y) == brute(c, X, y)
    else:
        try:
            first_disagreement(c, X, y)
        except CertificateError as exc:
            assert "\n" not in str(exc)
        else:
            raise AssertionError(f"{c.describe()} judged rounds of shape {X.shape}, {X.dtype}")
