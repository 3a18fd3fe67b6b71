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
from game.transcript._digest import INFINITY, NAN
from learners import Perceptron

X_FIXED = np.array([[1.0, 0.5], [-0.25, 2.0], [0.0, -1.0], [0.1, 0.3]])
Y_FIXED = [1, -1, 1, -1]
# Recorded when the canonical form was fixed: a change here changes every stored digest.
FIXED_GAME_DIGEST = "sha256:7ffeffaf8b04532fe87294313b9a4da741c041574abbbb828445d8183f697431"
FIXED_COLUMNS_DIGEST = "sha256:911de94ffd9f03f71d701560378400308b0f25e166d93d0d24ff3fc2d57a604b"


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


def test_floats_are_their_bits_rounded_to_single_precision():
    form = canonical(np.array([0.75, 1.0, -3.0, 0.1]))
    assert form.dtype == np.dtype("<i8") and form.shape == (4,)
    assert form.tolist() == [
        (1022 << 23) | (1 << 22),  # 0.75 = 1.5 · 2⁻¹: exponent field 1022, fraction .1
        1023 << 23,  # 1 = 1.0 · 2⁰
        -((1024 << 23) | (1 << 22)),  # -3 = -1.5 · 2¹
        (1019 << 23) | 0x4CCCCD,  # 0.1 = 1.6 · 2⁻⁴, the fraction rounded at 23 bits
    ]


def test_integer_valued_floats_differ_from_integers():
    assert canonical(np.array([1.0])).tolist() != canonical(np.array([1])).tolist()
    assert digest_columns([("x", np.array([1.0]))]) != digest_columns([("x", np.array([1]))])


def test_nan_and_infinities_have_their_own_forms():
    quiet = np.array([np.nan, np.inf, -np.inf])
    assert canonical(quiet).tolist() == [NAN, INFINITY, -INFINITY]
    other_nan = np.frombuffer(struct.pack("<Q", 0xFFF0000000000123), dtype=np.float64)
    assert np.isnan(other_nan[0])
    assert canonical(other_nan).tolist() == [NAN]  # every NaN, any sign or payload, is one
    assert canonical(np.array([0.0])).tolist() != canonical(np.array([np.nan])).tolist()
    largest = np.finfo(np.float64).max  # rounds up past the largest exponent: kept finite
    assert canonical(np.array([largest, -largest])).tolist() == [INFINITY - 1, 1 - INFINITY]


def test_negative_zero_is_zero():
    # -0.0 == 0.0 as numbers and sign(-0.0) = +1 like sign(0.0): one canonical form
    assert canonical(np.array([-0.0])).tolist() == canonical(np.array([0.0])).tolist() == [0]
    assert digest_columns([("p", np.array([-0.0]))]) == digest_columns([("p", np.array([0.0]))])
    mixed = np.array([0.0, -0.0, 1.0, -0.0])
    assert digest_columns([("p", mixed)]) == digest_columns([("p", np.abs(mixed))])


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
    (c,) = canonical(np.array([x])).tolist()
    if abs(x) < 2.0**-1022:  # zero and the subnormals: the double's fixed step, 2⁻¹⁰⁴⁵
        assert (
            abs(Fraction(abs(c)) * Fraction(2) ** -1045 - abs(Fraction(x))) <= Fraction(2) ** -1046
        )
        return
    exponent, fraction = abs(c) >> 23, abs(c) & ((1 << 23) - 1)
    value = (1 + Fraction(fraction, 1 << 23)) * Fraction(2) ** (exponent - 1023)
    assert math.copysign(1.0, c) == math.copysign(1.0, x)
    if abs(c) < INFINITY - 1:
        assert abs(value - abs(Fraction(x))) <= abs(Fraction(x)) / 2**24


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6))
def test_last_bit_noise_does_not_change_the_canonical_form(x):
    assume(abs(x) > 1e-300)  # noise is relative: zero's neighbours are subnormals
    m, _ = math.frexp(x)
    scaled = abs(m) * 2**24  # x = m · 2ᵉ: single precision keeps m's 24 leading bits
    assume(abs(scaled - math.floor(scaled) - 0.5) > 2.0**-20)  # not on a rounding boundary
    for noisy in (np.nextafter(x, np.inf), np.nextafter(x, -np.inf)):
        assert canonical(np.array([noisy])).tolist() == canonical(np.array([x])).tolist()


# -- stability ----------------------------------------------------------------------------


def reference_form(x: float) -> int:
    """A double's canonical form by its definition, from its bits with Python integers."""
    if math.isnan(x):
        return REF_NAN
    bits = struct.unpack("<q", struct.pack("<d", x))[0]
    magnitude = bits & (2**63 - 1)
    kept, rest = divmod(magnitude, 1 << 29)
    if rest > 1 << 28 or (rest == 1 << 28 and kept & 1):  # half to even
        kept += 1
    if magnitude != 0x7FF << 52:  # a finite number keeps a finite form
        kept = min(kept, REF_INFINITY - 1)
    return -kept if bits < 0 else kept


REF_INFINITY = 0x7FF << 23
REF_NAN = REF_INFINITY + 1


def reference_digest(columns) -> str:
    """The documented digest, written out independently of game.transcript."""
    h = hashlib.sha256(b"online-learning-games/rounds/2\n")
    for name, column in columns:
        h.update(name.encode() + b"\n")
        for part in column if isinstance(column, list) else [column]:
            a = np.asarray(part)
            h.update(repr(a.shape).encode() + b"\n")
            values = a.ravel().tolist()
            if a.dtype.kind in "biu":
                h.update(struct.pack(f"<{len(values)}q", *[int(v) for v in values]))
                continue
            singles, exceptions = [], []
            for i, v in enumerate(values):
                c = reference_form(v)
                exponent = abs(c) >> 23
                if c == 0:
                    singles.append(0)
                elif 1023 - 126 <= exponent <= 1023 + 127:  # a normal single: its own bits
                    single = abs(c) - ((1023 - 127) << 23)
                    singles.append(single | (1 << 31 if c < 0 else 0))
                else:
                    singles.append(0xFFFF_FFFF)
                    exceptions += [i, c]
            h.update(struct.pack(f"<{len(singles)}I", *singles))
            if exceptions:
                h.update(f"exceptions {len(exceptions) // 2}\n".encode())
                h.update(struct.pack(f"<{len(exceptions)}q", *exceptions))
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
    assert canonical(np.array([x])).tolist() == [1022 << 23]
    assert canonical(np.array([np.nextafter(x, 1.0)])).tolist() == [(1022 << 23) + 1]


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
    assert whole == reference_digest(columns)
    monkeypatch.setattr(digest_module, "_PIECE", 7)  # pieces of a few rounds
    assert digest_module.digest_columns(columns) == whole


SPECIAL = [
    0.0,
    -0.0,
    np.inf,
    -np.inf,
    np.nan,
    5e-324,
    -5e-324,
    1e-40,
    2.0**-126,
    2.0**-126 * (1 - 2.0**-26),
    2.0**-127,
    2.0**128 * (1 - 2.0**-26),
    3.4e38,
    1e300,
    np.finfo(np.float64).max,
    -np.finfo(np.float64).max,
    1.0 - 2.0**-30,
]


@given(st.lists(st.integers(min_value=-(2**63), max_value=2**63 - 1), min_size=1, max_size=40))
def test_canonical_form_is_its_definition_on_every_bit_pattern(patterns):
    """Every double (any bit pattern: subnormals, NaN payloads, ±0, ±inf) gets its defined form."""
    values = np.array(patterns, dtype=np.int64).view(np.float64)
    assert canonical(values).tolist() == [reference_form(v) for v in values.tolist()]


@given(
    st.lists(
        st.one_of(
            st.integers(min_value=-(2**63), max_value=2**63 - 1).map(
                lambda b: struct.unpack("<d", struct.pack("<q", b))[0]
            ),
            st.sampled_from(SPECIAL),
            st.floats(width=32).map(float),
            st.floats(),
        ),
        max_size=60,
    ),
    st.integers(1, 9),
)
def test_digest_is_its_definition_on_any_floats_and_pieces(values, piece):
    """Singles where they stand for the form, exceptions after the part, whatever the pieces."""
    import game.transcript._digest as digest_module

    columns = [("x", np.array(values, dtype=np.float64)), ("y", [np.array(values[:3])])]
    whole = digest_module.digest_columns(columns)
    assert whole == reference_digest(columns)
    original = digest_module._PIECE
    try:
        digest_module._PIECE = piece
        assert digest_module.digest_columns(columns) == whole
    finally:
        digest_module._PIECE = original


@given(st.integers(2**23, 2**24 - 1), st.integers(-1040, 1023), st.booleans())
def test_canonical_form_rounds_exact_halves_to_even(kept, scale, negative):
    """A value halfway between two 24-bit significands rounds to the even one."""
    value = (kept + 0.5) * 2.0 ** (scale - 24) * (-1 if negative else 1)
    values = np.array([value, np.nextafter(value, 0), np.nextafter(value, np.inf)])
    assert canonical(values).tolist() == [reference_form(v) for v in values.tolist()]
    if abs(value) >= 2.0**-1022:  # the halfway value keeps the even significand
        assert abs(int(canonical(values)[0])) % 2 == 0


@given(st.lists(st.integers(min_value=-(2**63), max_value=2**63 - 1), min_size=1, max_size=30))
def test_header_floats_take_the_canonical_form_alone_or_as_a_vector(patterns):
    """canonical_text gives a float its canonical form, one at a time or a long list at once."""
    from game.transcript import canonical_text

    values = np.array(patterns, dtype=np.int64).view(np.float64).tolist()
    forms = [reference_form(v) for v in values]
    assert canonical_text(values) == canonical_text([[f] for f in forms])
    assert [canonical_text(v) for v in values] == [canonical_text([f]) for f in forms]
