#!/usr/bin/env bash
# Runs every fuzz target for a few seconds each (default 12), seeded from the scenes and
# the malformed corpus. A crash stops the script with the input that caused it: turn that
# input into a corpus test in the main package, then fix it.
#
#   swift build -c debug --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
#   ./run-smoke.sh [seconds-per-target]
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-12}
# No leak checking, in libFuzzer (-detect_leaks=0 below) nor at exit: LeakSanitizer cannot
# follow Swift's tagged pointers (see the note at `run`).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
bin=$(swift build -c debug --scratch-path .build-fuzz --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=..

# The pipeline target reads a first byte that picks the syntax (even: YAML, odd: DSL).
mkdir -p "$work/pipeline-seeds"
for f in "$root"/Scenes/*.yaml "$root"/Tests/SceneSyntaxTests/Malformed/*.yaml; do
  { printf '\000'; cat "$f"; } > "$work/pipeline-seeds/y-$(basename "$f")"
done
for f in "$root"/Scenes/*.scene "$root"/Tests/SceneSyntaxTests/Malformed/*.scene; do
  [ -e "$f" ] || continue
  { printf '\001'; cat "$f"; } > "$work/pipeline-seeds/d-$(basename "$f")"
done
# The drag target: even first byte, a YAML scene (the drag scenes); odd, settings chosen
# from the bytes (the seeds in Seeds/drag).
mkdir -p "$work/drag-seeds"
for name in bottom-sheet paging-carousel detent-knob dismiss-card; do
  { printf '\000'; cat "$root/Scenes/$name.yaml"; } > "$work/drag-seeds/y-$name"
done
cp Seeds/drag/* "$work/drag-seeds/"
mkdir -p "$work/yaml-seeds" "$work/dsl-seeds"
cp "$root"/Scenes/*.yaml "$root"/Tests/SceneSyntaxTests/Malformed/*.yaml "$work/yaml-seeds/"
cp "$root"/Scenes/*.scene "$work/dsl-seeds/"
cp "$root"/Tests/SceneSyntaxTests/Malformed/*.scene "$work/dsl-seeds/" 2>/dev/null || true

run() {
  local target=$1 seeds=$2
  mkdir -p "$work/$target"
  echo "fuzz: $target for ${seconds}s"
  # Leak detection is off: LeakSanitizer cannot follow Swift's tagged pointers (String and
  # bridge-object storage), so a lazily made global such as a table of names is reported
  # as leaked though it lives for the whole process. Memory errors are still caught.
  if ! "$bin/$target" "$work/$target" "$seeds" -dict=scenec.dict -max_total_time="$seconds" \
    -max_len=8192 -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 \
    -artifact_prefix="$work/$target-" \
    > "$work/$target.log" 2>&1; then
    tail -n 40 "$work/$target.log"
    mkdir -p crashes
    cp "$work/$target"-* crashes/ 2>/dev/null || true
    echo "fuzz: $target FAILED; the input is in Fuzz/crashes/: add it to the corpus tests, then fix it" >&2
    exit 1
  fi
  grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$work/$target.log" | tr '\n' ' '
  echo
}

run FuzzYAML "$work/yaml-seeds"
run FuzzDSL "$work/dsl-seeds"
run FuzzExpression Seeds/expressions
run FuzzTrace Seeds/traces
run FuzzPipeline "$work/pipeline-seeds"
run FuzzDrag "$work/drag-seeds"
echo "fuzz: every target ran ${seconds}s without a crash"
