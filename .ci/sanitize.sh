#!/usr/bin/env bash
# Sanitizer job: builds the core, the nardy-core tool and the Python module with
# AddressSanitizer + UndefinedBehaviorSanitizer (every report aborts), then runs the C++
# selftest, perft and rollouts of every variant through the tool and through Python, and a part
# of the Python suite that reaches the enumerator's counting path, rollouts and batches.
# Usage: .ci/sanitize.sh [BUILD_DIR]   (run inside the environment the tests use)
# The default is the short job .ci/run always runs (a few minutes, most of it the build);
# NARDY_SANITIZE_FULL=1 adds the parsers' fuzz tests, Ctrl-C and the remaining batch tests.
# NARDY_SANITIZERS=thread with clang++ as CXX gives a ThreadSanitizer run of the threaded tests.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${1:-build/sanitize}
sanitizers=${NARDY_SANITIZERS:-address,undefined}
cxx=${CXX:-c++}
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

flags="-fsanitize=$sanitizers -fno-sanitize-recover=all -fno-omit-frame-pointer -g"
cmake -S . -B "$build" "${generator[@]}" -DSKBUILD=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=$sanitizers" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=$sanitizers" \
  -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=$sanitizers" \
  -Dpybind11_DIR="$(python -m pybind11 --cmakedir)" -DPython_EXECUTABLE="$(command -v python)" \
  >/dev/null
cmake --build "$build" -j 2 >/dev/null

# A package tree with the sanitized module (never the one in python/nardy).
pkg="$build/pkg"
rm -rf "$pkg" && mkdir -p "$pkg"
cp -r python/nardy "$pkg/nardy"
find "$pkg/nardy" -name '_core*.so' -delete
rm -rf "$pkg/nardy/bin" && mkdir -p "$pkg/nardy/bin"
cp "$build"/_core*.so "$pkg/nardy/"
cp "$build/nardy-core" "$pkg/nardy/bin/nardy-core"

# The Python interpreter is not built with the sanitizer: its runtime is preloaded, leaks
# (the interpreter's own, at exit) are not checked, anything else aborts the run.
case "$sanitizers" in
  # libstdc++ beside it: ASan finds the real __cxa_throw only in a library loaded before it
  *address*) runtime="$("$cxx" -print-file-name=libasan.so) $("$cxx" -print-file-name=libstdc++.so)" ;;
  # clang's runtime is libclang_rt.tsan (GCC's libtsan does not match clang's instrumentation)
  *thread*) runtime=$("$cxx" -print-file-name=libclang_rt.tsan-x86_64.so)
            [ -e "$runtime" ] || runtime=$("$cxx" -print-file-name=libtsan.so) ;;
  *) runtime= ;;
esac
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
export PYTHONPATH="$root/$pkg"
export PYTHONMALLOC=malloc

tool="$pkg/nardy/bin/nardy-core"
if [[ "$sanitizers" == *address* ]]; then
  "$tool" selftest
  "$tool" perft backgammon 2 >/dev/null
  "$tool" perft shlem 1 >/dev/null  # (Shlem's depth 2 is 40,000 nodes of 21 full searches)
  "$tool" rollout backgammon 300 random 1 1 >/dev/null
  "$tool" rollout backgammon 200 greedy 1 2 >/dev/null
  "$tool" rollout shlem 100 random 1 1 >/dev/null
  LD_PRELOAD="$runtime" python - <<'EOF'
import nardy
from nardy import parallel
for name in ("backgammon", "nackgammon", "long-nardy", "long-nardy-classic", "shlem"):
    p = nardy.Position(name)
    for policy in ("random", "greedy"):
        r = nardy.rollout(p, 200, policy, seed=1, threads=2)
        assert r.games == 200, r
    depth = 1 if name == "shlem" else 2  # Shlem's depth 2 takes an hour under ASan
    nardy.perft(p, depth)
    nardy.divide(p, depth)
    parallel.perft_threads(p, depth, threads=2)
print("sanitized rollouts and perft: ok")
EOF
  # The short subset: rollouts (built-in and callable policies), the counting path through
  # perft and batches, the validation layer at the C++ boundary.
  tests=(tests/test_validate.py tests/test_rollout.py tests/test_perft_suite.py
         "tests/test_batch.py::test_afterstates_equal_legal_moves"
         "tests/test_batch.py::test_enumerate_loop_counts_what_legal_moves_lists")
  # perft lines up to two million nodes (the suite's big lines take minutes under ASan)
  export NARDY_PERFT_MAX_NODES=${NARDY_PERFT_MAX_NODES:-2000000}
  if [ "${NARDY_SANITIZE_FULL:-0}" = 1 ]; then
    unset NARDY_PERFT_MAX_NODES
    tests=(tests/test_validate.py tests/test_core_backgammon.py tests/test_rollout.py
           tests/test_batch.py tests/test_no_hit_and_hide.py tests/test_perft_suite.py)
    for t in tests/test_fuzz_*.py tests/test_interrupt.py; do [ -e "$t" ] && tests+=("$t"); done
  fi
else
  tests=(tests/test_threads.py tests/test_parallel.py)
fi
LD_PRELOAD="$runtime" python -m pytest -q -x -p no:cacheprovider "${tests[@]}"
echo "sanitizers ($sanitizers): no report"
