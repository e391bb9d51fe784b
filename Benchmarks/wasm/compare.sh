#!/usr/bin/env bash
# The WebAssembly engine under node beside the native engine, in the same run, on the
# same inputs: each scene of Scenes/ and the generated stress scenes (1,000 and 10,000
# handles), its scripted run with every frame written as JSON lines (the best of five).
#
# Native: `scenec run FILE -o OUT.jsonl` (release build), the time its summary line gives
# (from after loading to the last byte written). WebAssembly: Benchmarks/wasm/bench.mjs,
# the same work in the engine built by Scripts/build-wasm, the scene given as DSL.
# Usage: Benchmarks/wasm/compare.sh   (from the repository root)
set -euo pipefail
swift build -c release --product scenec >/dev/null
scenec=$(swift build -c release --show-bin-path)/scenec
engine=.build-wasm/scenec-engine.wasm
[ -f "$engine" ] || Scripts/build-wasm >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$scenec" generate --handles 1000 -o "$work/stress-1000.yaml"
"$scenec" generate --handles 10000 -o "$work/stress-10000.yaml"

printf '%-22s %7s %13s %13s %7s %11s %12s\n' scene frames "native µs/fr" "wasm µs/fr" ratio "wasm fps" "wasm load ms"
for file in Scenes/*.yaml "$work/stress-1000.yaml" "$work/stress-10000.yaml"; do
  name=$(basename "$file" .yaml)
  "$scenec" fmt --to dsl "$file" >"$work/$name.scene"
  # The scenes of Scenes/ last a second or two, a few milliseconds of work: each runs for
  # 600 s of scene time instead (its gesture, then the scene as it settles and rests), so
  # that the native time, given to the millisecond, means something. Both engines read
  # the same DSL file.
  case "$file" in Scenes/*)
    sed -i '0,/^scene /{/^scene /{s/ duration=[^ ]*//;s/$/ duration=600s/}}' "$work/$name.scene"
    ;;
  esac
  native=""
  for _ in 1 2 3 4 5; do
    seconds=$("$scenec" run "$work/$name.scene" -o "$work/$name.jsonl" 2>&1 | sed -n 's/.* in \([0-9.]*\) s$/\1/p')
    frames=$(wc -l <"$work/$name.jsonl")
    if [ -z "$native" ] || [ "$(echo "$seconds < $native" | bc -l)" = 1 ]; then native=$seconds; fi
  done
  wasm=$(node Benchmarks/wasm/bench.mjs "$engine" "$work/$name.scene" 5)
  python3 - "$name" "$frames" "$native" "$wasm" <<'PY'
import json, sys
name, frames, native, wasm = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), json.loads(sys.argv[4])
assert wasm["frames"] == frames, (name, wasm["frames"], frames)
n = native * 1e6 / frames
w = wasm["runMs"] * 1000 / frames
print(f"{name:22s} {frames:7d} {n:13.2f} {w:13.2f} {w / n:6.2f}x {1e6 / w:11.0f} {wasm['loadMs']:12.1f}")
PY
done
