"""Games you can watch: a transcript as an animation (GIF, or MP4 with ffmpeg).

Needs the optional extra ``plot`` (matplotlib, Pillow); importing this package
does not load matplotlib, :func:`animate` does. (It is not reached from
:mod:`game.viz`, whose import stays light for Jupyter's views of a transcript:
import it from here.)

- ``"perceptron"``: the Perceptron's separating line turning in two
  dimensions, with the points so far and the target of the certificate;
- ``"halving"``: Halving's consistent experts shrinking, beside ``|C_t|``
  against its bound;
- ``"tree"``: the walk down a Littlestone tree, the path so far highlighted;
- ``"weights"``: Weighted Majority's or Exponential Weights' weights over
  time, recomputed from the recorded advice and labels.

:func:`animations_for` says which fit a transcript, asking the players what
they declare (the learner class's ``proof``), never their names. A long game
is shown at evenly spaced rounds, at most ``max_frames`` of them
(:func:`frame_rounds`).

Examples
--------
>>> from game import load_scenario
>>> game = load_scenario("tree_halving").play()
>>> animations_for(game)
['halving', 'tree']
>>> frame_rounds(len(game))
[0, 1, 2, 3, 4, 5, 6, 7, 8]
"""

from game.viz.animations._animate import animate, frame_rounds
from game.viz.animations._kinds import animations_for

__all__ = ["animate", "animations_for", "frame_rounds"]
