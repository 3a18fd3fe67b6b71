"""The digest: canonical form, stability, sensitivity, insensitivity to last-bit noise.

Examples to paste::

    import numpy as np
    from game.transcript._digest import canonical, digest_columns
    canonical(np.array([0.75, -0.0, np.nan]))
    digest_columns([("labels", np.array([1, -1], dtype=np.int8))])
"""

from __future__ import annotations

import hashlib
import math
import struct
from fractions import Fraction

import attrs
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from adversaries import Replay, SeparableStream
from game import Transcript, play
from game.transcript import canonical, digest_columns
from learners import Perceptron

X_FIXED = np.array([[1.0, 0.5], [-0.25, 2.0], [0.0, -1.0], [0.1, 0.3]])
Y_FIXED = [1, -1, 1, -1]
# Recorded when the canonical form was fixed: a change here changes every stored digest.
FIXED_GAME_DIGEST = "sha256:6a2f54ea205dc54a5a6da93f91b4270f42255af47cb17dc2576499156a8490a9"
FIXED_COLUMNS_DIGEST = "sha256:483394f1397200eb87355e9e27e0c222341251e72ab4e0aeae7f657182586ad9"


def fixed_game() -> Transcript:
    adversary = Replay(instances=X_FIXED, labels=Y_FIXED, separator=[1.0, -0.5])
    return play(Perceptron(), adversary, rounds=10)


def fixed_columns() -> list:
    return [
        ("ints", np.array([3, -2, 0])),
        ("bools", np.array([True, False])),
        ("floats", np.array([0.1, -0.0, np.nan, np.inf, -np.inf, 1e300])),
        ("ragged", [np.array([1.0]), np.array([1.0, 2.0])]),
    ]


def stream_game(rounds: int = 300, seed: int = 4) -> Transcript:
    stream = SeparableStream(5, 0.1, rng=np.random.default_rng(seed))
    return play(Perceptron(), stream, rounds=rounds)


# -- the canonical form -------------------------------------------------------------------


def test_integers_are_themselves_as_little_endian_int64():
    form = canonical(np.array([3, -2, 0, 2**40], dtype=np.int64))
    assert form.dtype == np.dtype("<i8")
    assert form.tolist() == [3, -2, 0, 2**40]
    assert canonical(np.array([7, 250], dtype=np.uint8)).tolist() == [7, 250]
    assert canonical(np.array([1, -1], dtype=np.int8)).tolist() == [1, -1]


def test_booleans_are_zero_and_one():
    form = canonical(np.array([True, False, True]))
    assert form.dtype == np.dtype("<i8") and form.tolist() == [1, 0, 1]


def test_floats_are_mantissa_at_24_bits_exponent_and_code():
    form = canonical(np.array([0.75, 1.0, -3.0, 0.1]))
    assert form.dtype == np.dtype("<i8") and form.shape == (4, 3)
    assert form.tolist() == [
        [12582912, 0, 0],  # 0.75 = 0.75 · 2⁰
        [8388608, 1, 0],  # 1 = 0.5 · 2¹
        [-12582912, 2, 0],  # -3 = -0.75 · 2²
        [13421773, -3, 0],  # 0.1 = 0.8 · 2⁻³, 0.8 · 2²⁴ rounded
    ]


def test_integer_valued_floats_differ_from_integers():
    assert canonical(np.array([1.0])).shape != canonical(np.array([1])).shape


def test_nan_and_infinities_have_their_own_codes():
    quiet = np.array([np.nan, np.inf, -np.inf])
    assert canonical(quiet).tolist() == [[0, 0, 1], [0, 0, 2], [0, 0, 3]]
    other_nan = np.frombuffer(struct.pack("<Q", 0x7FF0000000000123), dtype=np.float64)
    assert np.isnan(other_nan[0])
    assert canonical(other_nan).tolist() == [[0, 0, 1]]  # every NaN payload is one NaN
    assert canonical(np.array([0.0])).tolist() != canonical(np.array([np.nan])).tolist()


def test_negative_zero_is_zero():
    # -0.0 == 0.0 as numbers and sign(-0.0) = +1 like sign(0.0): one canonical form
    assert canonical(np.array([-0.0])).tolist() == canonical(np.array([0.0])).tolist()
    assert canonical(np.array([0.0])).tolist() == [[0, 0, 0]]
    assert digest_columns([("p", np.array([-0.0]))]) == digest_columns([("p", np.array([0.0]))])


def test_mantissa_rounding_up_carries_into_the_exponent():
    below_one = 1.0 - 2.0**-30
    assert canonical(np.array([below_one])).tolist() == canonical(np.array([1.0])).tolist()
    assert canonical(np.array([-below_one])).tolist() == canonical(np.array([-1.0])).tolist()


def test_non_numeric_values_are_refused():
    with pytest.raises(TypeError, match="cannot digest"):
        canonical(np.array(["a", "b"]))
    with pytest.raises(TypeError, match="cannot digest"):
        canonical(np.array([None, 1.0], dtype=object))


@given(st.floats(allow_nan=False, allow_infinity=False, width=64))
def test_canonical_float_is_the_value_at_single_precision(x):
    q, e, code = canonical(np.array([x]))[0].tolist()
    assert code == 0
    if x == 0:
        assert (q, e) == (0, 0)
        return
    assert 2**23 <= abs(q) <= 2**24
    assert math.copysign(1.0, q) == math.copysign(1.0, x)
    assert abs(Fraction(q) * Fraction(2) ** (e - 24) - Fraction(x)) <= abs(Fraction(x)) / 2**24


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6))
def test_last_bit_noise_does_not_change_the_canonical_form(x):
    assume(abs(x) > 1e-300)  # noise is relative: zero's neighbours are subnormals
    m, _ = math.frexp(x)
    scaled = abs(m) * 2**24
    assume(abs(scaled - math.floor(scaled) - 0.5) > 2.0**-20)  # not on a rounding boundary
    for noisy in (np.nextafter(x, np.inf), np.nextafter(x, -np.inf)):
        assert canonical(np.array([noisy])).tolist() == canonical(np.array([x])).tolist()


# -- stability ----------------------------------------------------------------------------


def reference_digest(columns) -> str:
    """The documented canonical form, written out independently of game.transcript."""

    def form(values):
        a = np.asarray(values)
        if a.dtype.kind in "biu":
            return a.shape, [int(v) for v in a.ravel()]
        out = []
        for v in a.ravel().tolist():
            if math.isnan(v):
                out += [0, 0, 1]
            elif math.isinf(v):
                out += [0, 0, 2 if v > 0 else 3]
            else:
                m, e = math.frexp(v)
                q = round(m * 2**24)  # round half to even, as numpy.round
                if abs(q) == 2**24:
                    q, e = q // 2, e + 1
                out += [q, e, 0]
        return (*a.shape, 3), out

    h = hashlib.sha256(b"online-learning-games/rounds/1\n")
    for name, column in columns:
        h.update(name.encode() + b"\n")
        for part in column if isinstance(column, list) else [column]:
            shape, values = form(part)
            h.update(repr(tuple(shape)).encode() + b"\n")
            h.update(struct.pack(f"<{len(values)}q", *values))
    return "sha256:" + h.hexdigest()


def test_fixed_columns_digest_is_stable():
    assert digest_columns(fixed_columns()) == FIXED_COLUMNS_DIGEST
    assert reference_digest(fixed_columns()) == FIXED_COLUMNS_DIGEST


def test_fixed_game_digest_is_stable():
    tr = fixed_game()
    assert tr.predictions.tolist() == [1.0, 1.0, 1.0, -1.0]
    assert tr.updated.tolist() == [True, True, False, False]
    assert tr.rounds_digest == FIXED_GAME_DIGEST
    columns = [
        ("instances", X_FIXED),
        ("predictions", tr.predictions),
        ("labels", np.array(Y_FIXED)),
        ("updated", tr.updated),
    ]
    assert reference_digest(columns) == FIXED_GAME_DIGEST


def test_digest_covers_extras_in_sorted_order():
    tr = fixed_game()
    a = attrs.evolve(tr, extras={"b": np.ones(4), "a": np.zeros(4)})
    b = attrs.evolve(tr, extras={"a": np.zeros(4), "b": np.ones(4)})
    assert a.digest == b.digest != tr.digest
    assert attrs.evolve(tr, extras={"a": np.ones(4), "b": np.zeros(4)}).digest != a.digest


def test_digest_ignores_snapshots_and_wall_time():
    tr = stream_game(50)
    again = play(
        Perceptron(),
        SeparableStream(5, 0.1, rng=np.random.default_rng(4)),
        rounds=50,
        snapshots=True,
    )
    assert again.digest == tr.digest and again.wall_time != tr.wall_time


# -- sensitivity --------------------------------------------------------------------------


def changed(tr: Transcript, **columns) -> Transcript:
    return attrs.evolve(tr, **columns)


@pytest.mark.parametrize("i", [0, 137, 299])
def test_one_label_changes_the_digest(i):
    tr = stream_game()
    labels = tr.labels.copy()
    labels[i] = -labels[i]
    other = changed(tr, labels=labels)
    assert other.digest != tr.digest
    assert tr.first_difference(other) == i + 1 == other.first_difference(tr)


@pytest.mark.parametrize("i, j", [(0, 0), (150, 4), (299, 2)])
def test_one_instance_value_moved_by_1e_3_changes_the_digest(i, j):
    tr = stream_game()
    rows = [x.copy() for x in tr.raw_instances]
    rows[i][j] += 1e-3
    other = changed(tr, raw_instances=rows)
    assert other.digest != tr.digest
    assert tr.first_difference(other) == i + 1


@pytest.mark.parametrize("i", [0, 42, 299])
def test_one_updated_flag_changes_the_digest(i):
    tr = stream_game()
    updated = tr.updated.copy()
    updated[i] = not updated[i]
    other = changed(tr, updated=updated)
    assert other.digest != tr.digest
    assert tr.first_difference(other) == i + 1


def test_one_prediction_changes_the_digest():
    tr = stream_game()
    p = tr.predictions.copy()
    p[77] = 0.999
    assert changed(tr, predictions=p).digest != tr.digest
    assert tr.first_difference(changed(tr, predictions=p)) == 78


def test_one_extras_value_changes_the_digest():
    tr = changed(stream_game(), extras={"q": np.linspace(0, 1, 300)})
    q = tr.extras["q"].copy()
    q[200] += 1e-3
    other = changed(tr, extras={"q": q})
    assert other.digest != tr.digest and tr.first_difference(other) == 201


def test_first_difference_names_the_earliest_of_several():
    tr = stream_game()
    labels, updated = tr.labels.copy(), tr.updated.copy()
    labels[250] = -labels[250]
    updated[90] = not updated[90]
    assert tr.first_difference(changed(tr, labels=labels, updated=updated)) == 91


def test_first_difference_of_a_prefix_is_the_first_missing_round():
    tr = stream_game()
    short = stream_game(rounds=120)
    assert short.digest != tr.digest
    assert tr.first_difference(short) == 121 == short.first_difference(tr)
    assert tr.first_difference(stream_game()) is None


def test_first_difference_in_different_extras_keys_is_round_one():
    tr = stream_game(20)
    assert tr.first_difference(changed(tr, extras={"q": np.zeros(20)})) == 1


# -- insensitivity to last-bit noise ------------------------------------------------------


def test_last_bit_noise_in_every_value_keeps_the_digest():
    tr = stream_game()
    noisy_rows = [np.nextafter(x, np.inf) for x in tr.raw_instances]
    assert any(not np.array_equal(a, b) for a, b in zip(noisy_rows, tr.raw_instances, strict=True))
    noisy = changed(
        tr,
        raw_instances=noisy_rows,
        predictions=np.nextafter(tr.predictions, 0.0),  # 1 - 2⁻⁵³ and -(1 - 2⁻⁵³)
    )
    assert noisy.digest == tr.digest
    assert tr.first_difference(noisy) is None


def test_relative_change_of_1e_5_changes_the_digest():
    tr = stream_game()
    moved = changed(tr, raw_instances=[x * (1 + 1e-5) for x in tr.raw_instances])
    assert moved.digest != tr.digest and tr.first_difference(moved) == 1


def test_a_value_on_a_rounding_boundary_differs_from_its_neighbour():
    # Single precision has boundaries: 0.5 + 2⁻²⁵ rounds down (half to even), the next
    # double up. Two games a last bit apart share a digest except at such values
    # (probability about 2⁻²⁹ per value).
    x = 0.5 + 2.0**-25
    assert canonical(np.array([x])).tolist() == [[2**23, 0, 0]]
    assert canonical(np.array([np.nextafter(x, 1.0)])).tolist() == [[2**23 + 1, 0, 0]]


@given(
    st.floats(min_value=1e-300, max_value=1e300),
    st.floats(min_value=1e-6, max_value=1e-2),
    st.sampled_from([1.0, -1.0]),
)
def test_relative_change_of_1e_6_or_more_always_changes_the_canonical_form(x, rel, sign):
    a, b = sign * x, sign * x * (1.0 + rel)
    assert canonical(np.array([a])).tolist() != canonical(np.array([b])).tolist()


def test_long_columns_are_digested_piece_by_piece_to_the_same_bytes(monkeypatch):
    import game.transcript._digest as digest_module

    rng = np.random.default_rng(2)
    columns = [
        ("instances", rng.integers(-1, 2, (50, 13)).astype(np.int8)),
        ("predictions", rng.normal(size=50)),
        ("extras.x", [rng.normal(size=(3, 2)), rng.normal(size=4), np.float64(0.5)]),
        ("extras.empty", np.zeros(0)),
        ("extras.none", [np.zeros((0, 5), dtype=np.int8), np.zeros((2, 0))]),
    ]
    whole = digest_module.digest_columns(columns)
    # the definition: each part's canonical form hashed at once
    h = hashlib.sha256(b"online-learning-games/rounds/1\n")
    for name, column in columns:
        h.update(name.encode() + b"\n")
        for part in column if isinstance(column, list) else [column]:
            form = digest_module.canonical(part)
            h.update(repr(form.shape).encode() + b"\n" + form.tobytes())
    assert whole == "sha256:" + h.hexdigest()
    monkeypatch.setattr(digest_module, "_PIECE", 7)  # pieces of a few rounds
    assert digest_module.digest_columns(columns) == whole


def frexp_form(values: np.ndarray) -> np.ndarray:
    """The canonical form by its definition: ``frexp``, the mantissa rounded half to even."""
    array = np.asarray(values, dtype=np.float64)
    finite = np.isfinite(array)
    mantissa, exponent = np.frexp(np.where(finite, array, 0.0))
    quantised = np.round(mantissa * 2.0**24).astype("<i8")
    exponent = exponent.astype("<i8")
    carry = np.abs(quantised) == 1 << 24
    quantised = np.where(carry, quantised // 2, quantised)
    exponent = np.where(carry, exponent + 1, exponent)
    code = np.select([np.isnan(array), array == np.inf, array == -np.inf], [1, 2, 3], 0)
    return np.stack([quantised, exponent, code.astype("<i8")], axis=-1)


@given(st.lists(st.integers(min_value=-(2**63), max_value=2**63 - 1), min_size=1, max_size=40))
def test_canonical_form_from_the_bits_is_frexp_s(patterns):
    """Every double (any bit pattern: subnormals, NaN payloads, ±0, ±inf) gets its defined form."""
    values = np.array(patterns, dtype=np.int64).view(np.float64)
    assert np.array_equal(canonical(values), frexp_form(values))


@given(st.integers(2**23, 2**24 - 1), st.integers(-1040, 1023), st.booleans())
def test_canonical_form_rounds_exact_halves_to_even(kept, scale, negative):
    """A value halfway between two 24-bit mantissas rounds to the even one, as ``round`` does."""
    value = (kept + 0.5) * 2.0 ** (scale - 24) * (-1 if negative else 1)
    values = np.array([value, np.nextafter(value, 0), np.nextafter(value, np.inf)])
    assert np.array_equal(canonical(values), frexp_form(values))
