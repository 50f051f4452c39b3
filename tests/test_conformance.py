"""The conformance suite as pytest items: one per case × ruleset (see ``tests/conftest.py``).

Run one case with ``pytest tests/test_conformance.py -k ko.simple.recapture``, one ruleset with
``-k "[japanese]"``.
"""


def test_case(conformance_item):
    conformance_item.check()
