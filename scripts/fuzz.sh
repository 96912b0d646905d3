#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/, docs/fuzzing.md) in the sanitizer build
# (scripts/build-san.sh) and runs each for a bounded time on a copy of its checked-in corpus. Exits non-zero when any target crashes, leaks,
# trips a sanitizer or violates a property; the input that did it is kept under
# BUILD_DIR/fuzz-out/<target>/ and named in the output.
#
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET (default 30)]
# Environment: ATOMS_FUZZ_BUILD_DIR (default build-san), ATOMS_FUZZ_JOBS (targets run at once,
# default 2), ATOMS_FUZZ_TARGETS (space-separated subset, default all), ATOMS_FUZZ_SEED (libFuzzer's
# -seed; unset means a random seed per run: CI sets it so a run can be reproduced).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-30}
case $seconds in '' | *[!0-9]*)
  echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET]" >&2
  exit 2
  ;;
esac
build=${ATOMS_FUZZ_BUILD_DIR:-build-san}
jobs=${ATOMS_FUZZ_JOBS:-2}
# The one list of targets is tests/fuzz/CMakeLists.txt's; a target added there runs here too.
all_targets=$(sed -n 's/^set(ATOMS_FUZZ_TARGETS \(.*\))$/\1/p' tests/fuzz/CMakeLists.txt)
if [ -z "$all_targets" ]; then
  echo "scripts/fuzz.sh: no set(ATOMS_FUZZ_TARGETS ...) line in tests/fuzz/CMakeLists.txt" >&2
  exit 2
fi
targets=${ATOMS_FUZZ_TARGETS:-$all_targets}

# shellcheck disable=SC2086
ATOMS_BUILD_TARGETS=$(printf 'fuzz_%s ' $targets) bash scripts/build-san.sh "$build"

out=$build/fuzz-out
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# run_target NAME: fuzzes one target; the corpus copy collects what this run finds.
run_target() {
  local name=$1 dir=$out/$1
  rm -rf "$dir"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp tests/fuzz/corpus/"$name"/* "$dir/corpus/"
  local dict=() seed=()
  [[ -n ${ATOMS_FUZZ_SEED:-} ]] && seed=(-seed="$ATOMS_FUZZ_SEED")
  case $name in json | entry | receipt | segment) dict=(-dict=tests/fuzz/dict/json.dict) ;; esac
  "$build/tests/fuzz/fuzz_$name" "$dir/corpus" "${dict[@]}" "${seed[@]}" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" >"$dir/log" 2>&1
}

declare -A pids=()
failed=()
finish() {  # finish NAME: waits for its run and reports
  local name=$1
  if wait "${pids[$name]}"; then
    echo "fuzz $name: ok, $(grep -m1 -o 'stat::number_of_executed_units: [0-9]*' "$out/$name/log" |
      grep -o '[0-9]*$') runs in ${seconds}s"
  else
    failed+=("$name")
    echo "fuzz $name: FAILED (log: $out/$name/log)"
    grep -E 'ERROR|fuzz property violated|SUMMARY' "$out/$name/log" | head -5 | sed 's/^/  /'
    for a in "$out/$name/artifacts"/*; do
      [[ -e $a ]] && echo "  input: $a (add it to tests/fuzz/corpus/$name/ once fixed)"
    done
  fi
  unset "pids[$name]"
}

running=()
for name in $targets; do
  run_target "$name" &
  pids[$name]=$!
  running+=("$name")
  if ((${#running[@]} >= jobs)); then
    finish "${running[0]}"
    running=("${running[@]:1}")
  fi
done
for name in "${running[@]}"; do finish "$name"; done

if ((${#failed[@]} > 0)); then
  echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: all targets ran ${seconds}s without a failure"
