#!/usr/bin/env bash
# Run the core-touching tests against an AddressSanitizer + UBSan build of the C core.
#
# Builds src/core/*.c with -fsanitize=address,undefined into a temporary directory as a
# loadable royalchess/_core (next to a copy of the royalchess package), then runs a fast
# subset of the tests (ROYALCHESS_FAST=1: low perft depths, FEN and notation fuzzing,
# fewer differential games, binding abuse) with that copy first on the import path.
# Exits non-zero if a test fails or the sanitizers report anything.
#
# Environment:
#   PYTHON               interpreter with pytest, hypothesis and chess (default: the active
#                        virtualenv's, else <repo>/.venv/bin/python, else python3)
#   CC                   C compiler (default gcc)
#   ROYALCHESS_CORE_SRC  directory of the core's C sources (default <repo>/src/core)
#   SANITIZE_KEEP=1      keep the temporary directory (printed at the end)
#   extra arguments are passed to pytest (e.g. -k perft)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
core_src=${ROYALCHESS_CORE_SRC:-$repo/src/core}
cc=${CC:-gcc}
if [[ -z ${PYTHON:-} ]]; then
    if [[ -n ${VIRTUAL_ENV:-} && -x $VIRTUAL_ENV/bin/python ]]; then
        PYTHON=$VIRTUAL_ENV/bin/python
    elif [[ -x $repo/.venv/bin/python ]]; then
        PYTHON=$repo/.venv/bin/python
    else
        PYTHON=python3
    fi
fi

say() { printf 'sanitize: %s\n' "$*" >&2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/royalchess-sanitize.XXXXXX")
cleanup() {
    if [[ ${SANITIZE_KEEP:-0} == 1 ]]; then
        say "kept $work"
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT

libasan=$("$cc" -print-file-name=libasan.so)
libubsan=$("$cc" -print-file-name=libubsan.so)
for lib in "$libasan" "$libubsan"; do
    if [[ $lib != /* || ! -e $lib ]]; then
        say "$cc has no sanitizer runtime ($lib); install the compiler's libasan/libubsan"
        exit 2
    fi
done

include=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
suffix=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
if [[ ! -f $include/Python.h ]]; then
    say "Python.h not found in $include (install the Python development headers)"
    exit 2
fi

# A copy of the package without any built core, then the sanitized core inside it.
site=$work/site
mkdir -p "$site" "$work/obj" "$work/reports"
cp -R "$repo/royalchess" "$site/royalchess"
find "$site/royalchess" \( -name '*.so' -o -name '__pycache__' \) -prune -exec rm -rf {} +

flags=(-std=c99 -fPIC -g -O1 -fno-omit-frame-pointer -pthread
       -fsanitize=address,undefined -fno-sanitize-recover=undefined
       -I"$core_src" -I"$include")
say "building the core from $core_src with ASan + UBSan"
start=$SECONDS
pids=()
for src in "$core_src"/*.c; do
    "$cc" "${flags[@]}" -c "$src" -o "$work/obj/$(basename "$src" .c).o" &
    pids+=($!)
done
for pid in "${pids[@]}"; do
    wait "$pid"
done
"$cc" -shared -pthread -fsanitize=address,undefined "$work"/obj/*.o -o "$site/royalchess/_core$suffix"
say "built in $((SECONDS - start)) s"

cat >"$work/pytest.ini" <<'EOF'
[pytest]
addopts = -p no:cacheprovider
markers =
    slow: long-running proof
EOF

tests=(
    "$repo/tests/test_core_binding.py"
    "$repo/tests/test_perft_standard.py"
    "$repo/tests/test_fen.py"
    "$repo/tests/test_notation_roundtrip.py"
    "$repo/tests/test_chess_differential.py"
    "$repo/tests/test_engine.py"
    "$repo/tests/test_uci.py"
    "$repo/tests/test_royal_rules.py"
    "$repo/tests/test_explain.py"
    "$repo/tests/test_nnue.py"
)

say "running ${#tests[@]} test files against the sanitized core"
start=$SECONDS
set +e
(
    cd "$site"
    export LD_PRELOAD="$libasan:$libubsan"
    # ASan writes its reports to files; UBSan (GCC's runtime ignores log_path) writes to
    # standard error, which --capture=sys leaves uncaptured so the report survives the exit.
    export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:exitcode=87:log_path=$work/reports/asan"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=86"
    export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
    export PYTHONMALLOC=malloc
    export PYTHONDONTWRITEBYTECODE=1
    export ROYALCHESS_FAST=1
    export ROYALCHESS_EXPECT_CORE="$site/royalchess"
    # The endings census needs the full game count, which the normal run plays.
    exec "$PYTHON" -m pytest -c "$work/pytest.ini" --rootdir "$work" -q -m "not slow" \
        -k "not test_every_automatic_termination_occurred" --capture=sys "${tests[@]}" "$@"
) 2>&1 | tee "$work/output.log"
status=${PIPESTATUS[0]}
set -e
say "tests finished in $((SECONDS - start)) s with status $status"

found=0
reports=("$work"/reports/*)
if [[ -e ${reports[0]} ]]; then
    found=1
    for report in "${reports[@]}"; do
        say "sanitizer report $(basename "$report"):"
        cat "$report" >&2
    done
fi
if grep -qE 'runtime error:|ERROR: AddressSanitizer|SUMMARY: (Address|UndefinedBehavior)Sanitizer' \
        "$work/output.log"; then
    found=1
fi
if [[ $status -eq 86 || $status -eq 87 ]]; then
    found=1
fi
if [[ $found -eq 1 ]]; then
    say "FAILED: the sanitizers reported errors (see above)"
    exit 1
fi
if [[ $status -ne 0 ]]; then
    say "FAILED: pytest exit status $status"
    exit "$status"
fi
say "OK: no sanitizer reports"
