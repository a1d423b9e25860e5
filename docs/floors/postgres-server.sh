#!/bin/sh
# A throwaway PostgreSQL server for the benchmarks: a cluster in a temporary folder on
# loopback at a free port, run as the postgres user when started as root. Prints the
# shell lines that point termdata-bench at it and say how to stop it:
#   eval "$(docs/floors/postgres-server.sh)"
set -e
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || bin=$(pg_config --bindir)
dir=$(mktemp -d /tmp/termdata-pg-bench-XXXXXX)
run=""
if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; run="runuser -u postgres --"; fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
$run "$bin/initdb" -D "$dir/data" -U termdata --auth=trust -E UTF8 --locale=C >/dev/null
$run "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-p $port -k $dir -c listen_addresses=127.0.0.1" start >/dev/null </dev/null
echo "export TERMDATA_BENCH_POSTGRES='postgres://termdata@127.0.0.1:$port/postgres'"
echo "# stop it with: $run $bin/pg_ctl -D $dir/data -m fast stop && rm -rf $dir"
