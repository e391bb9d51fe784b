"""The Python peers of Benchmarks/Peers/run, on the inputs scenec's PeerFigures measures.

Reads PeerFigures' JSON on standard input (for its lengths, to compare accuracy) and the
path of the YAML file it wrote as the first argument; prints one JSON object of figures.
Every time is the minimum over several passes, as on scenec's side.

- svgpathtools and skia-python (PathMeasure): arc lengths of the geometry benchmark's
  1,000 cubics, from the same xorshift64* stream and seed;
- skia-python: the 64-segment wavy path measured, then 1,000 positions at length;
- pymunk: 1,000 and 10,000 bodies on damped springs (the `loose` spring of the spring
  workload: damping ratio 0.2, period 1.5 s, mass 1) released with the same offset and
  velocity, stepped at 1/60 s for 60 steps;
- rapidyaml: the 40,000-handle stress scene's YAML parsed to its tree.
"""

import json
import math
import sys
import time

import pymunk
import ryml
import skia
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
        return (x, self.uniform(-200.0, 200.0))


def fastest(passes, work):
    best = math.inf
    for _ in range(passes):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def cubics(count=1000, seed=0x5CE0EC0DE5EED001):
    random = XorShift64Star(seed)
    result = []
    for _ in range(count):
        result.append([random.point() for _ in range(4)])
        random.point()  # the query point
        random.next()  # the target length
    return result


def wavy_path():
    """The geometry benchmark's 64 cubics through a sum of two sines, as a skia path."""
    width, count = 6400.0, 64

    def y(x):
        return 150 * math.sin(2 * math.pi * x / 800) + 40 * math.sin(2 * math.pi * x / 230)

    def slope(x):
        return 150 * (2 * math.pi / 800) * math.cos(2 * math.pi * x / 800) + 40 * (
            2 * math.pi / 230
        ) * math.cos(2 * math.pi * x / 230)

    step = width / count
    path = skia.Path()
    path.moveTo(0, y(0))
    for index in range(count):
        x0, x1 = index * step, (index + 1) * step
        path.cubicTo(
            x0 + step / 3, y(x0) + step / 3 * slope(x0),
            x1 - step / 3, y(x1) - step / 3 * slope(x1),
            x1, y(x1),
        )
    return path


def springs(count):
    period, ratio, mass = 1.5, 0.2, 1.0
    stiffness = 4 * math.pi**2 * mass / period**2
    damping = 2 * ratio * math.sqrt(stiffness * mass)
    best = math.inf
    for _ in range(3):
        space = pymunk.Space()
        for i in range(count):
            rest = (i % 40 * 100 + 50, i // 40 * 100 + 50)
            body = pymunk.Body(mass, math.inf)
            body.position = (rest[0] + 40, rest[1] + 10)
            body.velocity = (600, 0)
            spring = pymunk.DampedSpring(body, space.static_body, (0, 0), rest, 0, stiffness, damping)
            space.add(body, spring)
        start = time.perf_counter()
        for _ in range(60):
            space.step(1 / 60)
        best = min(best, time.perf_counter() - start)
    return best / (count * 60) * 1e9


def main():
    scenec = json.loads(sys.stdin.read())
    curves = cubics()

    lengths = []

    def svgpathtools_lengths():
        lengths.clear()
        lengths.extend(
            CubicBezier(*(complex(*p) for p in c)).length(error=1e-9) for c in curves
        )

    svg_time = fastest(3, svgpathtools_lengths)
    svg_worst = max(abs(a - b) / b for a, b in zip(lengths, scenec["lengths"]))

    skia_paths = []
    for c in curves:
        path = skia.Path()
        path.moveTo(*c[0])
        path.cubicTo(*c[1], *c[2], *c[3])
        skia_paths.append(path)
    skia_lengths = []

    def skia_measure_each():
        skia_lengths.clear()
        skia_lengths.extend(skia.PathMeasure(p, False).getLength() for p in skia_paths)

    skia_time = fastest(20, skia_measure_each)
    skia_worst = max(abs(a - b) / b for a, b in zip(skia_lengths, scenec["lengths"]))

    wavy = wavy_path()
    measure_time = fastest(200, lambda: skia.PathMeasure(wavy, False).getLength())
    measure = skia.PathMeasure(wavy, False)
    wavy_length = measure.getLength()
    random = XorShift64Star(0x1E46741500000003)
    queries = [random.unit() * wavy_length for _ in range(1000)]
    position_time = fastest(20, lambda: [measure.getPosTan(s) for s in queries])

    yaml_bytes = open(sys.argv[1], "rb").read()
    yaml_time = fastest(5, lambda: ryml.parse_in_arena(yaml_bytes))

    print(json.dumps({
        "svgpathtoolsArcLengthNs": svg_time / len(curves) * 1e9,
        "svgpathtoolsWorstDifference": svg_worst,
        "skiaArcLengthNs": skia_time / len(curves) * 1e9,
        "skiaWorstDifference": skia_worst,
        "skiaMeasureUs": measure_time * 1e6,
        "skiaPositionNs": position_time / len(queries) * 1e9,
        "skiaWavyLengthDifference": abs(wavy_length - scenec["wavyLength"]) / scenec["wavyLength"],
        "pymunkSpringNs": {"1000": springs(1000), "10000": springs(10000)},
        "rapidyamlMs": yaml_time * 1e3,
        "versions": {
            "pymunk": pymunk.version, "rapidyaml": ryml.version, "skia": skia.__version__,
        },
    }))


if __name__ == "__main__":
    main()
