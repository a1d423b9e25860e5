#!/bin/sh
# Builds a fuzz target with libFuzzer and AddressSanitizer, and runs it.
#
#   Fuzz/run.sh                              the predicate parser, for 120 seconds
#   Fuzz/run.sh compiled-model               the compiled-model reader (.mom files, model caches)
#   Fuzz/run.sh compiled-model -max_total_time=600 -jobs=2
#
# Findings are written as Fuzz/crash-<target>-* (…-crash-…, …-timeout-…, …-oom-…); reproduce one with
#   .build/fuzz/<target>-fuzzer Fuzz/crash-<target>-…
#
# Each target's growing corpus lives in Fuzz/corpus/<target>/ (ignored by git). The predicate
# parser starts from Fuzz/seeds/predicate/; the compiled-model reader from the compiled models
# in the tests' corpus, copied into .build/fuzz/seeds-compiled-model/.
set -eu
cd "$(dirname "$0")/.."
target=predicate
case "${1:-}" in
    predicate|compiled-model) target=$1; shift ;;
esac
out=.build/fuzz
mkdir -p "$out/include" "$out/modules" "Fuzz/corpus/$target"
# Swift's own crash handler and AddressSanitizer fight over a crash; let libFuzzer report it.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
sanitize="-sanitize=fuzzer,address"

# The regular-expression shim the predicates call, in C over ICU, as its own module.
clang -c -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CICURegex/include \
    Sources/CICURegex/termdata_regex.c -o "$out/termdata_regex.o"
printf 'module CICURegex {\n    header "%s/Sources/CICURegex/include/termdata_regex.h"\n    export *\n}\n' "$(pwd)" \
    > "$out/include/module.modulemap"
icu="-licui18n -licuuc"

case "$target" in
predicate)
    # The parser and the fuzzer in one module.
    swiftc $sanitize -parse-as-library -O -g -module-name PredicateFuzzer -I "$out/include" \
        $(find Sources/Predicates -name '*.swift' | sort) Fuzz/PredicateFuzzer/*.swift \
        "$out/termdata_regex.o" $icu -o "$out/predicate-fuzzer"
    seeds=Fuzz/seeds/predicate
    set -- -dict=Fuzz/predicate.dict "$@"
    ;;
compiled-model)
    # Predicates as a module of its own (the model reader imports it), then the reader and the fuzzer.
    swiftc $sanitize -parse-as-library -O -g -module-name Predicates -I "$out/include" \
        -emit-module -emit-module-path "$out/modules/Predicates.swiftmodule" \
        -emit-library -static -o "$out/libPredicates.a" \
        $(find Sources/Predicates -name '*.swift' | sort)
    swiftc $sanitize -parse-as-library -O -g -module-name CompiledModelFuzzer -I "$out/modules" -I "$out/include" \
        $(find Sources/ObjectModel -name '*.swift' | sort) Fuzz/CompiledModelFuzzer/*.swift \
        "$out/libPredicates.a" "$out/termdata_regex.o" $icu -o "$out/compiled-model-fuzzer"
    seeds=$out/seeds-compiled-model
    mkdir -p "$seeds"
    find Tests/TestSupport/Fixtures/Corpus -name '*.mom' -exec cp {} "$seeds/" \;
    set -- -max_len=65536 "$@"
    ;;
esac

if [ "$#" -eq 0 ] || ! printf '%s\n' "$@" | grep -q '^-max_total_time\|^-runs'; then set -- "$@" -max_total_time=120; fi
# Foundation's NSRegularExpression leaks a little when a pattern does not compile, which
# LeakSanitizer would report as a finding at exit; leak checking is therefore off.
exec "$out/$target-fuzzer" -artifact_prefix="Fuzz/crash-$target-" -detect_leaks=0 -rss_limit_mb=2048 -timeout=10 \
    "$@" "Fuzz/corpus/$target" "$seeds"
