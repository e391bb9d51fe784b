"""The geometry benchmark's cubics, measured by svgpathtools (a Python peer).

The cubics come from the same xorshift64* stream and seed as
Benchmarks/GeometryBenchmarks (four points in -200...200 each, then a query point and a
fraction, which are drawn and dropped), so both sides measure the same 1,000 curves.
Prints one JSON object: nanoseconds per arc length and the worst relative difference
from scenec's lengths, when those are given on standard input.
"""

import json
import sys
import time

from svgpathtools import CubicBezier

MASK = (1 << 64) - 1


class XorShift64Star:
    def __init__(self, seed):
        self.state = seed if seed != 0 else 0x9E3779B97F4A7C15

    def next(self):
        s = self.state
        s ^= s >> 12
        s ^= (s << 25) & MASK
        s ^= s >> 27
        self.state = s
        return (s * 0x2545F4914F6CDD1D) & MASK

    def unit(self):
        return (self.next() >> 11) * 2.0**-53

    def uniform(self, lo, hi):
        return lo + (hi - lo) * self.unit()

    def point(self):
        x = self.uniform(-200.0, 200.0)
        return complex(x, self.uniform(-200.0, 200.0))


def cubics(count=1000, seed=0x5CE0EC0DE5EED001):
    random = XorShift64Star(seed)
    result = []
    for _ in range(count):
        p0, p1, p2, p3 = random.point(), random.point(), random.point(), random.point()
        result.append(CubicBezier(p0, p1, p2, p3))
        random.point()  # the query point
        random.unit()  # the target length
    return result


def main():
    curves = cubics()
    reference = json.loads(sys.stdin.read() or "{}").get("lengths")
    start = time.perf_counter()
    lengths = [c.length(error=1e-9) for c in curves]
    elapsed = time.perf_counter() - start
    worst = None
    if reference:
        worst = max(abs(a - b) / b for a, b in zip(lengths, reference))
    print(json.dumps({"arcLengthNs": elapsed / len(curves) * 1e9, "worstDifference": worst}))


if __name__ == "__main__":
    main()
