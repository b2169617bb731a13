"""Game records: matches as Jellyfish/gnubg ``.mat`` text, as SGF (GM[6]) and as nardy records.

The formats live in :mod:`nardy.formats.mat`, :mod:`nardy.formats.sgf` and
:mod:`nardy.formats.nardyrec`, on the validating replay of :mod:`nardy.formats._replay`; this
module gathers their public names.

* :func:`write_mat` / :func:`read_mat` -- the ``.mat`` export of Jellyfish and GNU Backgammon
  (``N point match``, ``Game 1``, the score line, numbered moves ``31: 8/5 6/5`` in two columns,
  ``Doubles => 2``, ``Takes``, ``Drops``, ``Wins 2 points``), in gnubg's exact layout.
* :func:`write_sgf` / :func:`read_sgf` -- the Smart Game Format for backgammon (``GM[6]``): one
  game tree per game, ``W[31hefe]`` moves with points ``a``..``x``, ``y`` bar, ``z`` off,
  ``double`` / ``take`` / ``drop``, match information in ``MI``, result in ``RE``.

Reading replays every game through :class:`~nardy.match.Match` and the :class:`~nardy.game.Game`
API: each move is checked against the legal moves of its roll, each cube action against the
cube rules, each ``Wins N points`` against the result. The first thing that does not fit raises
:class:`~nardy.errors.InvalidRecordError`; its message names the game, the move number (the
numbered line of the ``.mat`` layout, also used for SGF) and the player, and the exception
carries them as ``.game``, ``.move`` and ``.player`` (``.line`` too for ``.mat`` text).

White is gnubg's player 0 (the left column of ``.mat``, ``PW`` and ``W`` in SGF), Black is
player 1. ``.mat`` and SGF record backgammon and the other variants gnubg plays; the nardy
record (:func:`read_record`, :func:`write_record`) every variant. Details:
``docs/formats.md``.
"""

from nardy.formats._replay import MatchRecord
from nardy.formats.mat import read_mat, write_mat
from nardy.formats.nardyrec import convert_record, convert_text, read_record, write_record
from nardy.formats.sgf import read_sgf, write_sgf

__all__ = ["MatchRecord", "convert_record", "convert_text", "read_mat", "read_record",
           "read_sgf", "write_mat", "write_record", "write_sgf"]
