"""A tiny random Leela Zero network, for verifying Leela Zero's rules, not its strength.

Leela Zero reads its weights from a text file (format version 1; the Debian package's
README.Debian writes one out with a one-line Python command): the first line is ``1``, then one
line of space-separated numbers per tensor, in this order —

* the input convolution: weights (``filters × 18 × 3 × 3``), biases, batch-norm means, variances
  (``filters`` each);
* per residual block, two such convolutions (``filters × filters × 3 × 3`` weights each);
* the policy head: a 1×1 convolution to 2 planes (weights, biases, means, variances), then the
  fully connected layer to the 362 moves (``362 × 722`` weights, 362 biases);
* the value head: a 1×1 convolution to 1 plane, a fully connected layer to 256 (``256 × 361``),
  and one to the single output (256 weights, 1 bias).

Leela Zero infers the number of filters and of residual blocks from the line lengths, so a
network of 8 filters and one block loads in milliseconds and answers every GTP command a rules
test asks (``play``, ``boardsize``, ``clear_board``, ``fixed_handicap``, ``list_commands``). The
weights are drawn from a seeded generator: the same seed writes the same file.

Usage: ``python implementations/leela-zero/tiny_network.py OUT [--seed N]`` writes the file and prints
the ``--impl`` spec that verifies Leela Zero with it (:func:`leelaz_command`).
"""

import argparse
import random
import shlex
import shutil
import sys
from pathlib import Path

FILTERS = 8
BLOCKS = 1
INPUT_PLANES = 18
MOVES = 362  # 19 × 19 points and the pass
POINTS = 361
LEELAZ_BINARY = "/usr/games/leelaz"


def leelaz_binary() -> str | None:
    """Leela Zero: ``/usr/games/leelaz`` (Debian) or ``leelaz`` on the PATH, else None."""
    if shutil.which(LEELAZ_BINARY):
        return LEELAZ_BINARY
    return shutil.which("leelaz")


def leelaz_command(network: Path, binary: str | None = None) -> list[str]:
    """Leela Zero as a GTP engine for rules tests: quiet, on the CPU, one thread, no pondering,
    one playout (it is never asked for a move), with the weights file ``network``."""
    exe = binary or leelaz_binary() or LEELAZ_BINARY
    return [
        exe,
        "--gtp",
        "--quiet",
        "--noponder",
        "--playouts",
        "1",
        "--cpu-only",
        "--threads",
        "1",
        "-w",
        str(network),
    ]


def network_lines(seed: int = 1, filters: int = FILTERS, blocks: int = BLOCKS) -> list[str]:
    """The lines of a weights file (format version 1), without newlines."""
    rng = random.Random(seed)

    def weights(n: int) -> str:
        return " ".join(f"{rng.uniform(-0.1, 0.1):.3g}" for _ in range(n))

    def zeros(n: int) -> str:
        return " ".join(["0"] * n)

    def ones(n: int) -> str:
        return " ".join(["1"] * n)

    lines = ["1"]

    def convolution(outputs: int, inputs: int, side: int) -> None:
        lines.extend([weights(outputs * inputs * side * side), zeros(outputs), zeros(outputs), ones(outputs)])

    convolution(filters, INPUT_PLANES, 3)
    for _ in range(2 * blocks):
        convolution(filters, filters, 3)
    convolution(2, filters, 1)
    lines += [weights(MOVES * 2 * POINTS), weights(MOVES)]
    convolution(1, filters, 1)
    lines += [weights(256 * POINTS), weights(256), weights(256), weights(1)]
    return lines


def write_network(path: Path, seed: int = 1) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(network_lines(seed)) + "\n", encoding="ascii")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tiny_network.py", description=__doc__)
    parser.add_argument("out", type=Path, help="the weights file to write")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    write_network(args.out, args.seed)
    print("gtp:" + shlex.join(leelaz_command(args.out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
