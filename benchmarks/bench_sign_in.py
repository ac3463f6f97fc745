"""What a sign-in costs the server, and that a name nobody has costs the same as a wrong
password: the answer's time says nothing about which names exist.

A script that prints figures, never a test:

    python benchmarks/bench_sign_in.py [--rounds 20]

It times :func:`thousand.server.passwords.verify` (argon2id at argon2-cffi's defaults) in
interleaved rounds: a right password, a wrong one for an account that exists, and a name nobody
has (checked against the dummy hash); and :func:`~thousand.server.passwords.hash_password`
(a sign-up or a change of password). Medians and spreads in milliseconds of wall-clock time.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from thousand.server import passwords


def timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    stored = passwords.hash_password("the right password")
    passwords.warm()
    cases: dict[str, Callable[[], object]] = {
        "right password": lambda: passwords.verify(stored, "the right password"),
        "wrong password": lambda: passwords.verify(stored, "a wrong password"),
        "unknown name": lambda: passwords.verify(None, "a wrong password"),
        "hash (sign-up)": lambda: passwords.hash_password("a new password"),
    }
    times: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(args.rounds):
        for name, call in cases.items():
            times[name].append(timed(call))
    for name, found in times.items():
        q = statistics.quantiles(found, n=10)
        print(
            f"{name:16} median {statistics.median(found):6.1f} ms"
            f"  (10th-90th percentile {q[0]:.1f}-{q[-1]:.1f} ms, {len(found)} rounds)"
        )


if __name__ == "__main__":
    main()
