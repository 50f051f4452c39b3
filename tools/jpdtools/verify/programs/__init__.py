"""JSON-lines programs wrapping third-party Go libraries, so the harness can verify them.

These are *programs under test*, not part of the reference: each one reports only what its library
decides, and declares the rest as unknown. :mod:`jpdtools.verify.programs.profiles` names the command that
launches each one (``jpd verify --impl sgfmill``, ``openspiel``, ``dlgo``; the Node programs of
``node/``: ``sabaki``, ``godash``, ``tenuki``, ``wgo``, ``goban``).
"""
