"""Tampered transcript files: every footer and header field edited, with and without a new digest.

Two real transcripts are written by scenarios: a Perceptron game against a
separable stream (a halfspace certificate and the learner's bound) and Halving
against the balanced adversary (an expert certificate, a bound and a lower
bound). Every field is edited two ways: (a) the field alone, the footer's
digest left as written; (b) the field and a digest recomputed to match (with
:attr:`Transcript.digest`, exactly as :meth:`Transcript.load` computes it), so
only what is recomputed from the file can catch the edit. Each edit is refused
with a one-line :class:`TranscriptError` that names the file and what is wrong
(the digest, or the field), or, for a field that is harmless by design, the
file loads and nothing recomputed from it changes.

What a file holds, and how much of it is believed:

- **Digested** (an edit without a new digest is refused, naming the digest):
  the header's game-defining fields (``learner`` and ``adversary`` with their
  parameters, ``rounds``, ``loss``, ``seed``, ``scenario.spec`` without its
  ``expect`` table, description and snapshots flag), every round, the
  ``certificate`` (its description aside), the ``status``, and each bound's
  value, quantity, kind and whether it applies.
- **Recomputed on reading** (an edit is refused even with a new digest, naming
  the field): the footer's ``rounds``, ``mistakes``, ``updates`` and ``loss``
  (from the rounds); ``certificate_verified`` (the certificate, rebuilt through
  the table of kinds, judged against the rounds again; so a changed certificate
  or ``realizable`` flag is caught too); the learner's ``bound`` (the learner
  rebuilt from the header, so ``learner`` and its parameters are caught where
  they change the bound; the bound's wording is the recomputed one); the lower
  bound's checked hypotheses (deterministic learner, labels realizable); and
  the header's ``rounds``, ``seed`` and ``loss`` against the rounds played and
  the scenario's spec.
- **Informational** (neither digested nor recomputed; an edit loads and changes
  no verdict): ``wall_time``, ``reason``, ``versions``, ``scenario.path``, the
  spec's description and ``expect`` table, the header's ``snapshots`` flag, a
  bound's wording (replaced by the recomputed bound).
- **Digested, not recomputable from the file alone** (a forged digest makes
  the file claim another game; no verdict computed from its rounds changes):
  the adversary and its parameters, learner parameters that do not change its
  bound, the scenario's spec, the status, and the lower bound's value (the
  adversary's claim). ``python -m game replay`` plays the game again and
  compares.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

from game import Transcript, TranscriptError, load_scenario
from game.cli import main
from game.transcript._reader import read_transcript
from game.viz import summary_entries

PERCEPTRON = """\
rounds = 40
seed = 3
description = "the Perceptron on a separable stream"

[learner]
name = "perceptron"

[adversary]
name = "separable-stream"
dimension = 3
margin = 0.2
radius = 0.9
"""

HALVING = """\
rounds = 10
seed = 0

[learner]
name = "halving"

[adversary]
name = "halving-lower-bound"
experts = 16
"""


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, Path]:
    """The two transcripts, each written once by its scenario."""
    folder = tmp_path_factory.mktemp("tampered")
    out = {}
    for name, text in (("perceptron", PERCEPTRON), ("halving", HALVING)):
        scenario = folder / f"{name}.toml"
        scenario.write_text(text, encoding="utf-8")
        out[name] = folder / f"{name}.jsonl"
        load_scenario(scenario).play(out=out[name])
    return out


def test_the_two_files_hold_what_the_edits_attack(written):
    p, h = (Transcript.load(written[k]) for k in ("perceptron", "halving"))
    assert p.status == "complete" and len(p) == 40 and p.certificate.kind == "halfspace"
    assert p.certificate_verified is True and p.bound is not None and p.lower_bound is None
    assert p.bound.quantity == "updates" and p.bound.applies
    assert h.status == "complete" and h.certificate.kind == "expert"
    assert h.certificate_verified is True and h.bound.value == 4.0
    assert h.lower_bound.value == 4.0 and h.summary()["forced"] is True
    assert [x.name for x in h.lower_bound.hypotheses] == [
        "deterministic learner",
        "labels realizable",
    ]


# -- editing a file -----------------------------------------------------------------------------


def read_lines(path: Path) -> tuple[dict, list[dict], dict]:
    objs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return objs[0], objs[1:-1], objs[-1]


def write_lines(path: Path, header: dict, rounds: list[dict], footer: dict) -> Path:
    text = "".join(json.dumps(obj) + "\n" for obj in (header, *rounds, footer))
    path.write_text(text, encoding="utf-8")
    return path


def tamper(source: Path, target: Path, edit: Callable, *, redigest: bool) -> Path:
    """``source`` with ``edit(header, footer)`` applied, written to ``target``; with
    ``redigest``, the footer's digest recomputed exactly as reading the file computes it."""
    header, rounds, footer = read_lines(source)
    edit(header, footer)
    write_lines(target, header, rounds, footer)
    if redigest:
        try:
            read = read_transcript(target)
        except TranscriptError:
            return target  # the footer cannot be read: no digest to match
        footer["digest"] = Transcript(**read.fields).digest
        write_lines(target, header, rounds, footer)
    return target


def setter(*path, value=None, op=None):
    """An edit setting (or, with ``op``, changing) the entry at ``path``: ``("footer",
    "bound", "value")``, ``("header", "learner", "params", "normalize")``."""

    def edit(header, footer):
        obj = {"header": header, "footer": footer}[path[0]]
        for key in path[1:-1]:
            obj = obj[key]
        obj[path[-1]] = op(obj[path[-1]]) if op is not None else value

    edit.__name__ = ".".join(map(str, path))
    return edit


def add_hypothesis(name, holds, where="bound"):
    def edit(header, footer):
        footer[where]["hypotheses"].append({"name": name, "holds": holds, "detail": "forged"})

    return edit


def flip_hypothesis(name, where="lower_bound"):
    def edit(header, footer):
        for h in footer[where]["hypotheses"]:
            if h["name"] == name:
                h["holds"] = not h["holds"]

    return edit


def drop_hypothesis(name, where="lower_bound"):
    def edit(header, footer):
        footer[where]["hypotheses"] = [h for h in footer[where]["hypotheses"] if h["name"] != name]

    return edit


def negate_weights(header, footer):
    weights = footer["certificate"]["params"]["weights"]
    footer["certificate"]["params"]["weights"] = [-w for w in weights]


def several(*edits):
    def edit(header, footer):
        for e in edits:
            e(header, footer)

    return edit


# -- what is expected of an edit -----------------------------------------------------------------

DIGEST = "the footer's digest does not match the file"
LOADS = "loads"  # harmless by design: loads, and nothing recomputed changes
CLAIM = "claim"  # loads with a forged claim not recomputable from the file (see above)
UNCHECKED = "unchecked"  # loads, its bound kept as written and named in ``unchecked``


@attrs.frozen
class Case:
    id: str
    file: str  # "perceptron" or "halving"
    edit: Callable
    a: str  # the edit alone: DIGEST, LOADS, or a regex the error's message must match
    b: str  # the edit with its digest recomputed


def totals(field, file, claimed, actual):
    refused = f"footer says {field} = {claimed}; the rounds give {actual}"
    return Case(f"{field}-{file}", file, setter("footer", field, value=claimed), refused, refused)


CASES = [
    # -- the footer
    Case(
        "status-aborted", "perceptron", setter("footer", "status", value="aborted"), DIGEST, CLAIM
    ),
    Case(
        "status-unknown",
        "perceptron",
        setter("footer", "status", value="won"),
        r"malformed footer \(status 'won' is not 'complete' or 'aborted'\)",
        r"malformed footer \(status 'won'",
    ),
    Case("reason", "perceptron", setter("footer", "reason", value="a forged reason"), LOADS, LOADS),
    Case(
        "rounds",
        "perceptron",
        setter("footer", "rounds", value=41),
        "footer says 41 rounds, the file holds 40",
        "footer says 41 rounds, the file holds 40",
    ),
    totals("mistakes", "perceptron", 999, 1),
    totals("updates", "perceptron", 0, 2),
    totals("loss", "perceptron", 0.0, 1.0),
    totals("mistakes", "halving", 3, 4),
    totals("loss", "halving", 4.5, 4.0),
    Case(
        "certificate-negated",
        "perceptron",
        negate_weights,
        DIGEST,
        "footer says certificate_verified = True; the rounds give False",
    ),
    Case(
        "certificate-another-expert",
        "halving",
        setter("footer", "certificate", "params", "expert", value=5),
        DIGEST,
        "footer says certificate_verified = True; the rounds give False",
    ),
    Case(
        "certificate-kind-expert",
        "perceptron",
        setter("footer", "certificate", "kind", value="expert"),
        r"malformed footer \(certificate: kind 'expert' needs the parameter 'expert'\)",
        r"malformed footer \(certificate: kind 'expert' needs the parameter 'expert'\)",
    ),
    Case(
        "certificate-kind-halfspace",
        "halving",
        setter("footer", "certificate", "kind", value="halfspace"),
        r"malformed footer \(certificate: kind 'halfspace' needs the parameter 'weights'\)",
        r"malformed footer \(certificate: kind 'halfspace' needs",
    ),
    Case(
        "certificate-kind-unknown",
        "halving",
        setter("footer", "certificate", "kind", value="oracle"),
        r"malformed footer \(certificate: unknown kind 'oracle'",
        r"malformed footer \(certificate: unknown kind 'oracle'",
    ),
    Case(
        "certificate-not-realizable",
        "perceptron",
        setter("footer", "certificate", "realizable", value=False),
        DIGEST,
        "footer says certificate_verified = True; the rounds give None",
    ),
    Case(
        "certificate-not-realizable",
        "halving",
        setter("footer", "certificate", "realizable", value=False),
        DIGEST,
        "footer says certificate_verified = True; the rounds give None",
    ),
    Case(
        "certificate-removed",
        "perceptron",
        setter("footer", "certificate", value=None),
        DIGEST,
        "footer says certificate_verified = True; the rounds give None",
    ),
    Case(
        "certificate-description",
        "perceptron",
        setter("footer", "certificate", "description", value="w = (1, 1, 1)"),
        LOADS,
        LOADS,
    ),
    Case(
        "certificate_verified-false",
        "perceptron",
        setter("footer", "certificate_verified", value=False),
        "footer says certificate_verified = False; the rounds give True",
        "footer says certificate_verified = False; the rounds give True",
    ),
    Case(
        "certificate_verified-null",
        "halving",
        setter("footer", "certificate_verified", value=None),
        "footer says certificate_verified = None; the rounds give True",
        "footer says certificate_verified = None; the rounds give True",
    ),
    Case(
        "bound-value",
        "perceptron",
        setter("footer", "bound", "value", value=0.0),
        DIGEST,
        r"footer's bound is updates ≤ 0; recomputed from the rounds it is updates ≤ 19\.6",
    ),
    Case(
        "bound-value",
        "halving",
        setter("footer", "bound", "value", value=1.0),
        DIGEST,
        "footer's bound is mistakes ≤ 1; recomputed from the rounds it is mistakes ≤ 4",
    ),
    Case(
        "bound-quantity",
        "perceptron",
        setter("footer", "bound", "quantity", value="mistakes"),
        DIGEST,
        r"footer's bound is mistakes ≤ 19\.6.*; recomputed from the rounds it is updates ≤ 19\.6",
    ),
    Case(
        "bound-kind",
        "perceptron",
        setter("footer", "bound", "kind", value="lower"),
        DIGEST,
        r"footer's bound is updates ≥ 19\.6.*; recomputed from the rounds it is updates ≤ 19\.6",
    ),
    Case(
        "bound-hypothesis-failing",
        "perceptron",
        add_hypothesis("norms finite", False),
        DIGEST,
        r"footer's bound is updates ≤ 19\.6\S* \(not applicable: norms finite fails: forged\); "
        r"recomputed from the rounds it is updates ≤ 19\.6\S*$",
    ),
    Case("bound-hypothesis-holding", "perceptron", add_hypothesis("forged", True), LOADS, LOADS),
    Case("bound-theorem", "halving", setter("footer", "bound", "theorem", value="x"), LOADS, LOADS),
    Case(
        "bound-removed",
        "perceptron",
        setter("footer", "bound", value=None),
        DIGEST,
        r"footer's bound is none; recomputed from the rounds it is updates ≤ 19\.6",
    ),
    Case(
        "status-aborted-and-bound",
        "perceptron",
        several(
            setter("footer", "status", value="aborted"), setter("footer", "bound", "value", value=0)
        ),
        DIGEST,
        "footer's bound is updates ≤ 0; recomputed from the rounds it is updates ≤ 19",
    ),
    Case(
        "lower_bound-value",
        "halving",
        setter("footer", "lower_bound", "value", value=9.0),
        DIGEST,
        CLAIM,
    ),
    Case(
        "lower_bound-deterministic-learner",
        "halving",
        flip_hypothesis("deterministic learner"),
        DIGEST,
        "footer's lower bound says 'deterministic learner' fails; recomputed, it holds",
    ),
    Case(
        "lower_bound-labels-realizable",
        "halving",
        flip_hypothesis("labels realizable"),
        DIGEST,
        "footer's lower bound says 'labels realizable' fails; recomputed, it holds",
    ),
    Case(
        "lower_bound-hypothesis-dropped",
        "halving",
        several(
            flip_hypothesis("labels realizable"),
            drop_hypothesis("labels realizable"),
            flip_hypothesis("deterministic learner"),
            drop_hypothesis("deterministic learner"),
        ),
        LOADS,
        LOADS,
    ),
    Case(
        "lower_bound-removed", "halving", setter("footer", "lower_bound", value=None), DIGEST, CLAIM
    ),
    Case(
        "digest",
        "perceptron",
        setter("footer", "digest", value="sha256:" + "0" * 64),
        DIGEST,
        LOADS,  # recomputing the digest puts the right one back
    ),
    Case(
        "digest-missing",
        "halving",
        lambda header, footer: footer.pop("digest"),
        r"malformed footer \('digest'\)",
        r"malformed footer \('digest'\)",
    ),
    Case("wall_time", "perceptron", setter("footer", "wall_time", value=1e9), LOADS, LOADS),
    # -- the header
    Case(
        "learner-name",
        "perceptron",
        setter("header", "learner", "name", value="margin-perceptron"),
        DIGEST,
        UNCHECKED,  # the header's parameters are not a margin Perceptron's: it is not rebuilt
    ),
    Case(
        "learner-name",
        "halving",
        several(
            setter("header", "learner", "name", value="weighted-majority"),
            setter("header", "learner", "params", value={"beta": 0.5, "experts": None}),
        ),
        DIGEST,
        r"footer's bound is mistakes ≤ 4; recomputed from the rounds it is mistakes ≤ 9\.6",
    ),
    Case(
        "learner-unregistered",
        "perceptron",
        setter("header", "learner", "name", value="my.module:Learner"),
        DIGEST,
        UNCHECKED,
    ),
    Case(
        "learner-params-normalize",
        "perceptron",
        setter("header", "learner", "params", "normalize", value=True),
        DIGEST,
        r"footer's bound is updates ≤ 19\.6\S*; recomputed from the rounds it is updates ≤ 11\.1",
    ),
    Case(
        "learner-params-zero-label",
        "perceptron",
        setter("header", "learner", "params", "zero_label", value=-1),
        DIGEST,
        CLAIM,  # the bound does not depend on it; replay plays the game again
    ),
    Case(
        "learner-params-unknown",
        "perceptron",
        setter("header", "learner", "params", "bogus", value=1),
        DIGEST,
        UNCHECKED,
    ),
    Case(
        "adversary-name",
        "perceptron",
        setter("header", "adversary", "name", value="noisy-stream"),
        DIGEST,
        CLAIM,
    ),
    Case(
        "adversary-params",
        "halving",
        setter("header", "adversary", "params", "experts", value=1024),
        DIGEST,
        CLAIM,
    ),
    Case(
        "rounds-fewer-than-played",
        "perceptron",
        setter("header", "rounds", value=39),
        DIGEST,
        "header says at most 39 rounds; the file holds 40",
    ),
    Case(
        "rounds-unlike-the-spec",
        "halving",
        setter("header", "rounds", value=64),
        DIGEST,
        "header's rounds = 64 differs from its scenario's 10",
    ),
    Case(
        "loss",
        "perceptron",
        setter("header", "loss", value="absolute"),
        DIGEST,
        "header's loss = 'absolute' differs from its scenario's 'zero-one'",
    ),
    Case(
        "seed",
        "perceptron",
        setter("header", "seed", value=4),
        DIGEST,
        "header's seed = 4 differs from its scenario's 3",
    ),
    Case(
        "spec-seed",
        "halving",
        setter("header", "scenario", "spec", "seed", value=7),
        DIGEST,
        "header's seed = 0 differs from its scenario's 7",
    ),
    Case(
        "spec-adversary",
        "perceptron",
        setter("header", "scenario", "spec", "adversary", "margin", value=0.3),
        DIGEST,
        CLAIM,  # replay plays the spec's game again
    ),
    Case(
        "spec-description",
        "perceptron",
        setter("header", "scenario", "spec", "description", value="a forged description"),
        LOADS,
        LOADS,
    ),
    Case(
        "spec-expect",
        "halving",
        setter("header", "scenario", "spec", "expect", value={"mistakes": 0}),
        LOADS,
        LOADS,
    ),
    Case(
        "scenario-path",
        "perceptron",
        setter("header", "scenario", "path", value="/elsewhere/forged.toml"),
        LOADS,
        LOADS,
    ),
    Case("versions", "halving", setter("header", "versions", "numpy", value="0.0"), LOADS, LOADS),
    Case("snapshots-flag", "perceptron", setter("header", "snapshots", value=True), LOADS, LOADS),
]

IDS = [f"{c.id}-{c.file}" if not c.id.endswith(c.file) else c.id for c in CASES]


def _check(case: Case, expected: str, path: Path, honest: Transcript) -> None:
    if expected in (LOADS, CLAIM, UNCHECKED):
        loaded = Transcript.load(path)
        for field in ("mistakes", "updates", "loss"):
            assert loaded.observed(field) == honest.observed(field)
        assert loaded.certificate_verified == honest.certificate_verified
        assert loaded.rounds_digest == honest.rounds_digest
        if expected == UNCHECKED:
            assert "bound" in loaded.unchecked
            rows = {r.label: r.text for r in summary_entries(loaded)}  # and every view says so
            assert rows["not recomputed"] == "bound (as the file claims)"
            return
        assert loaded.unchecked == ()
        assert loaded.bound == honest.bound  # the bound recomputed, its wording too
        assert loaded.summary()["within_bound"] == honest.summary()["within_bound"]
        if expected == LOADS:
            assert loaded.lower_bound == honest.lower_bound
            assert loaded.summary()["forced"] == honest.summary()["forced"]
            assert loaded.status == honest.status and loaded.digest == honest.digest
        return
    with pytest.raises(TranscriptError) as caught:
        Transcript.load(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}:"), message
    assert re.search(expected if expected != DIGEST else re.escape(DIGEST), message), message


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_an_edit_alone_is_refused_naming_the_digest_or_the_field(case, written, tmp_path):
    honest = Transcript.load(written[case.file])
    path = tamper(written[case.file], tmp_path / "edited.jsonl", case.edit, redigest=False)
    _check(case, case.a, path, honest)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_an_edit_with_its_digest_recomputed_is_refused_naming_the_field(case, written, tmp_path):
    honest = Transcript.load(written[case.file])
    path = tamper(written[case.file], tmp_path / "forged.jsonl", case.edit, redigest=True)
    _check(case, case.b, path, honest)


def test_every_footer_and_header_field_is_edited(written):
    header, _rounds, footer = read_lines(written["halving"])
    edited = {c.id.split("-")[0] for c in CASES}  # each case's id starts with its field
    assert set(footer) - {"type"} <= edited, set(footer) - edited
    assert set(header) - {"type", "format", "version"} <= edited, set(header) - edited
    assert {"spec", "learner", "adversary"} <= edited


# -- the command line ---------------------------------------------------------------------------


@pytest.fixture
def cli(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(tmp_path)

    def run(*argv) -> tuple[int, str, str]:
        status = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return status, out, err

    return run


@pytest.mark.parametrize(
    "edit, redigest, message",
    [
        (setter("footer", "mistakes", value=999), False, "footer says mistakes = 999"),
        (setter("footer", "certificate_verified", value=False), True, "certificate_verified"),
        (setter("footer", "bound", "value", value=0.0), True, "footer's bound is updates ≤ 0"),
        (negate_weights, False, DIGEST),
        (negate_weights, True, "certificate_verified = True; the rounds give False"),
        (setter("header", "seed", value=4), True, "header's seed = 4 differs"),
    ],
    ids=["mistakes", "verified", "bound", "negated", "negated-redigested", "seed"],
)
def test_replay_refuses_a_tampered_file_in_one_line(edit, redigest, message, written, cli):
    path = tamper(written["perceptron"], Path("forged.jsonl"), edit, redigest=redigest)
    status, out, err = cli("replay", path)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: forged.jsonl:"), err
    assert message in lines[0]


def test_replay_plays_a_forged_spec_again_and_fails_naming_the_round(written, cli):
    edit = setter("header", "scenario", "spec", "adversary", "margin", value=0.3)
    path = tamper(written["perceptron"], Path("forged.jsonl"), edit, redigest=True)
    Transcript.load(path)  # nothing in the file contradicts the forged spec
    status, _out, err = cli("replay", path)
    lines = err.strip().splitlines()
    assert status == 1 and len(lines) == 1, err
    assert lines[0].startswith("failed: forged.jsonl: the replay differs first at round 1")


def test_replay_says_identical_for_an_informational_edit(written, cli):
    edit = setter("footer", "wall_time", value=1e9)
    path = tamper(written["perceptron"], Path("timed.jsonl"), edit, redigest=False)
    status, out, err = cli("replay", path)
    assert status == 0 and err == ""
    assert out.startswith("identical: 40 rounds")
