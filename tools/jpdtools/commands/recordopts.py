"""Options shared by the commands that read game records (``replay``, ``count``).

``--komi rules|record``: each ruleset's own komi (the default), or the record's ``KM`` as a fixed
komi in points, exactly the variant ``NAME:komi=KM`` (spec/counting.md#count.replay, "Komi").
"""

import argparse

KOMI_SOURCES = ("rules", "record")


def add_komi_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--komi",
        choices=KOMI_SOURCES,
        default="rules",
        help="rules: each ruleset's own komi (default); record: the record's KM, as NAME:komi=KM",
    )
