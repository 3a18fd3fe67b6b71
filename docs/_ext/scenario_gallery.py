"""The gallery: one page per built-in scenario, written when the build starts.

Every scenario of :func:`game.builtin_scenarios` is played the way ``python -m
game report`` plays it (:func:`game.viz.report.play_entry`: snapshots where the
learner logs them, every figure that applies by
:func:`game.viz.plots.figures_for`), and gets a page in
``gallery/generated/``: its description, the theorems it checks with their
sources, its figures, its summary (:func:`game.viz.summary_entries`, as the
command line prints it, without the wall time so that a page is the same from
one build to the next), its ``[expect]`` checks and its TOML. ``index.inc``
holds the thumbnails and the toctree that ``gallery/index.rst`` includes.

A scenario whose game has an animation (:func:`game.viz.animations.animations_for`)
shows the first that fits as a GIF under its figures, drawn with few frames at a
low resolution (:data:`ANIMATION_FRAMES`, :data:`ANIMATION_DPI`) so the build
stays quick.

A scenario that cannot be played, or that fails its expectations or its
bound, is a warning, so the build (``-W``) fails.

The folder is rewritten on every build (and git-ignored).
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: The figures' resolution (the report's default is 80).
DPI = 100
#: The animations' most frames and resolution.
ANIMATION_FRAMES = 16
ANIMATION_DPI = 60
#: Captions of the animations, by kind.
ANIMATION_CAPTIONS = {
    "perceptron": "The Perceptron's separating line turning, with the points so far.",
    "halving": "The consistent experts shrinking, beside their count against the bound.",
    "tree": "The walk down the Littlestone tree, round by round.",
    "weights": "The experts' weights after every round, recomputed from the record.",
}
#: Captions of the figures, by kind.
CAPTIONS = {
    "mistakes": "Cumulative mistakes (and updates) against the bounds, round by round.",
    "regret": "Losses and regret against the bound after every round.",
    "potential": "The proof's potential against its inequality, from the learner's snapshots.",
    "tree": "The Littlestone tree the adversary walked, with the path of the game.",
}


def _title(text: str, underline: str = "=") -> list[str]:
    return [text, underline * len(text), ""]


def _escape(text: str) -> str:
    """Text safe in reStructuredText's inline markup."""
    for char in "\\*`|_":
        text = text.replace(char, "\\" + char)
    return text


def _bound_lines(label: str, bound: Any) -> list[str]:
    """A bound as a definition: its value, theorem, source and checked hypotheses."""
    if bound is None:
        return []
    sign = "≤" if bound.kind == "upper" else "≥"
    lines = [
        f"**{label}**",
        f"   {_escape(bound.quantity)} {sign} {bound.value:g}: {_escape(bound.theorem)}.",
        "",
        f"   *Source:* {_escape(bound.source)}.",
        "",
    ]
    for hypothesis in bound.hypotheses:
        mark = "✓" if hypothesis.holds else "✗"
        detail = f": {_escape(hypothesis.detail)}" if hypothesis.detail else ""
        lines.append(f"   - {mark} {_escape(hypothesis.name)}{detail}")
    return [*lines, ""]


def _summary_table(transcript: Any) -> list[str]:
    from game.viz import summary_entries

    lines = [".. list-table::", "   :header-rows: 0", "   :widths: 1 3", ""]
    for row in summary_entries(transcript):
        if row.label == "wall time":
            continue
        text = f"``{row.text}``" if row.code else _escape(row.text)
        if row.note:
            text += f" ({_escape(row.note)})"
        lines += [f"   * - {_escape(row.label)}", f"     - {text}"]
    return [*lines, ""]


def animation_gif(transcript: Any) -> tuple[str, bytes] | None:
    """The first animation that fits the game, as (kind, GIF bytes); None when none fits."""
    import tempfile

    from game.viz.animations import animate, animations_for

    kinds = animations_for(transcript)
    if not kinds:
        return None
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "a.gif"
        animate(
            transcript, out, kind=kinds[0], max_frames=ANIMATION_FRAMES, dpi=ANIMATION_DPI, fps=3
        )
        return kinds[0], out.read_bytes()


def scenario_page(
    name: str, path: Path, entry: Any, animation: tuple[str, bytes] | None = None
) -> tuple[str, dict[str, bytes]]:
    """The page of one scenario (reStructuredText) and its figures (file name -> PNG or GIF)."""
    lines = [f".. _gallery-{name}:", "", *_title(name)]
    lines += [_escape(entry.description), ""] if entry.description else []
    lines += [
        f"Play it: ``python -m game run {name}``, or from Python "
        f'``game.load_scenario("{name}").play()``.',
        "",
    ]
    images: dict[str, bytes] = {}
    if entry.error is not None:
        lines += [".. error::", "", textwrap.indent(_escape(entry.error), "   "), ""]
    else:
        transcript = entry.transcript
        lines += _title("Theorems", "-")
        bounds = _bound_lines("The learner's bound", transcript.bound)
        bounds += _bound_lines("The adversary's lower bound", transcript.lower_bound)
        lines += bounds or ["Neither player states a bound for this game.", ""]
        lines += _title("Figures", "-")
        for kind, data in entry.figures.items():
            file = f"{name}-{kind}.png"
            images[file] = data
            lines += [
                f".. figure:: {file}",
                f"   :alt: the {kind} figure of {name}",
                "",
                f"   {CAPTIONS.get(kind, kind)}",
                "",
            ]
        for kind, why in entry.skipped.items():
            lines += [f"The {kind} figure is not drawn: {_escape(why)}", ""]
        if animation is not None:
            kind, data = animation
            file = f"{name}-{kind}.gif"
            images[file] = data
            lines += _title("Animation", "-")
            lines += [
                f".. figure:: {file}",
                f"   :alt: the {kind} animation of {name}",
                "",
                f"   {ANIMATION_CAPTIONS.get(kind, kind)} "
                f"``python -m game animate runs/{path.stem}.jsonl --kind {kind}``",
                "",
            ]
        lines += _title("Summary", "-")
        lines += _summary_table(transcript)
        if entry.failures:
            items = [f"- {_escape(f)}" for f in entry.failures]
            lines += ["**Expectations failed:**", "", *items, ""]
        else:
            lines += ["Every expectation of its ``[expect]`` table holds.", ""]
    lines += _title("The scenario file", "-")
    lines += [f"``{path.name}``:", "", ".. code-block:: toml", ""]
    lines += [textwrap.indent(path.read_text(encoding="utf-8").rstrip(), "   "), ""]
    return "\n".join(lines), images


def index_include(names: list[str], thumbnails: dict[str, str]) -> str:
    """The thumbnails (the first figure of each scenario) and the toctree of the pages."""
    lines = [".. container:: olg-gallery", ""]
    for name in names:
        image = thumbnails.get(name)
        if image is None:
            lines += [f"   :ref:`gallery-{name}`", ""]
            continue
        lines += [
            f"   .. figure:: generated/{image}",
            f"      :alt: {name}",
            f"      :target: generated/{name}.html",
            "",
            f"      :ref:`gallery-{name}`",
            "",
        ]
    lines += [".. toctree::", "   :hidden:", ""]
    lines += [f"   generated/{name}" for name in names]
    return "\n".join(lines) + "\n"


def write_gallery(app: Sphinx) -> None:
    """Play every built-in scenario and rewrite ``gallery/generated/``."""
    from api_pages import write_folder

    from game import builtin_scenarios
    from game.viz.report import play_entry

    files: dict[str, str | bytes] = {}
    thumbnails: dict[str, str] = {}
    scenarios = builtin_scenarios()
    for name, path in scenarios.items():
        entry = play_entry(path, fmt="png", dpi=DPI)
        if entry.error is not None:
            logger.warning("gallery: %s cannot be played: %s", name, entry.error)
        elif entry.failures:
            logger.warning("gallery: %s fails its expectations: %s", name, entry.failures)
        elif entry.transcript.summary()["within_bound"] is False:
            logger.warning("gallery: %s exceeds its bound", name)
        animation = None
        if entry.error is None:
            try:
                animation = animation_gif(entry.transcript)
            except Exception as exc:
                logger.warning("gallery: %s cannot be animated: %s", name, exc)
        page, images = scenario_page(name, path, entry, animation)
        files[f"{name}.rst"] = page
        files.update(images)
        pictures = [file for file in images if file.endswith(".png")]
        if pictures:
            thumbnails[name] = pictures[0]
    files["index.inc"] = index_include(list(scenarios), thumbnails)
    write_folder(Path(app.srcdir) / "gallery" / "generated", files)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", write_gallery)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
