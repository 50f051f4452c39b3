"""Proofs of the life, death and seki a counting case declares (spec/counting.md#count.status).

A bounded exhaustive search that plays every move through the reference engine
(:meth:`jpdref.Game.play`: its legality, captures and repetition rule, never a copy of them) and
returns a small move tree a reviewer can read, or "undecided within N nodes". May import jpdref
and the top-level foundations only.

* :mod:`.tree` — the move tree of a proof (frozen values the book draws);
* :mod:`.benson` — unconditional life (Benson's algorithm): chains no sequence of moves captures;
* :mod:`.eyes` — life by eye spaces: enclosures read on their own, every move answered inside;
* :mod:`.region` — where a search plays (a chain's region, living eye space left out);
* :mod:`.search` — can one side capture a chain for good (J1989 Art. 7's second test: a capture
  its owner answers by capturing back does not count), with a given side moving first?
* :mod:`.status` — dead, alive and seki for the chains of a position, by the definitions.
"""
