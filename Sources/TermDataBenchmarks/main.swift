import Foundation
import SQLiteStore

// Each benchmark group registers here; `termdata-bench GROUP...` runs the named groups,
// `termdata-bench` alone runs them all. Build with `-c release` for figures worth quoting.
let groups: [(name: String, run: () throws -> Void)] = [
    ("predicates", PredicateBenchmarks.run),
    ("objectgraph", ObjectGraphBenchmarks.run),
    ("terminal", runTerminalBenchmarks),
    ("paste", runPasteBenchmarks),
    ("sqlite", SQLiteBenchmarks.run),
    ("todo", ToDoBenchmarks.run),
    ("migration", MigrationBenchmarks.run),
    ("history", HistoryBenchmarks.run),
    ("postgres", PostgresBenchmarks.run),
    ("live", LiveBenchmarks.run),
    ("typed", TypedBenchmarks.run),
    ("related", RelatedInsertBenchmarks.run),
    ("counts", CountsBenchmarks.run),
    ("diff", DiffBenchmarks.run),
]

// Every store type the benchmarks open, registered once for the whole program.
SQLiteStore.register()

if CommandLine.arguments.dropFirst().first == "postgres-client" {
    try PostgresClient.run(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if CommandLine.arguments.dropFirst().first?.hasPrefix("todo-") == true {
    try ToDoBenchmarks.runChild()
    exit(0)
}

let requested = Set(CommandLine.arguments.dropFirst())
for group in groups where requested.isEmpty || requested.contains(group.name) {
    print("== \(group.name)")
    try group.run()
}
