#!/bin/sh
# Builds the predicate parser with libFuzzer and runs it.
#
#   Fuzz/run.sh                 run for 120 seconds
#   Fuzz/run.sh -max_total_time=600 -jobs=2
#
# Findings are written as Fuzz/crash-* (crash-crash-…, crash-timeout-…); reproduce one with
#   .build/fuzz/predicate-fuzzer Fuzz/crash-crash-…
#
# the growing corpus lives in Fuzz/corpus/ (ignored by git) and starts from Fuzz/seeds/.
set -eu
cd "$(dirname "$0")/.."
mkdir -p .build/fuzz Fuzz/corpus
# Swift's own crash handler and AddressSanitizer fight over a crash; let libFuzzer report it.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
swiftc -sanitize=fuzzer,address -parse-as-library -O -g \
    -module-name PredicateFuzzer \
    $(find Sources/Predicates -name '*.swift' | sort) \
    Fuzz/PredicateFuzzer/*.swift \
    -o .build/fuzz/predicate-fuzzer
if [ "$#" -eq 0 ]; then set -- -max_total_time=120; fi
# Foundation's NSRegularExpression leaks a little when a pattern does not compile, which
# LeakSanitizer would report as a finding at exit; leak checking is therefore off.
exec .build/fuzz/predicate-fuzzer -artifact_prefix=Fuzz/crash- -dict=Fuzz/predicate.dict \
    -detect_leaks=0 "$@" Fuzz/corpus Fuzz/seeds
