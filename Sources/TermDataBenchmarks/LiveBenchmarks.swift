import Foundation
import ObjectGraph
import ObjectModel
import PostgresStore
import Predicates
import ToDoApp

/// From another program's commit to the change on the ToDo application's screen, as a user
/// sees it: the application (the built `termdata`, beside this program) runs in tmux on a
/// store; this program renames an item and saves, twenty times, and reads the screen every
/// few milliseconds until the new name shows. On a SQLite store, and on a PostgreSQL store
/// when `TERMDATA_BENCH_POSTGRES` names a server.
///
/// ```
/// swift build -c release --product termdata && swift build -c release --product termdata-bench && .build/release/termdata-bench live
/// ```
enum LiveBenchmarks {
    static func run() throws {
        let termdata = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("termdata")
        guard FileManager.default.isExecutableFile(atPath: termdata.path) else {
            print("build termdata beside termdata-bench: swift build -c release --product termdata")
            return
        }
        guard (try? Terminal.run(["tmux", "-V"]))?.status == 0 else {
            print("tmux is not installed, and the application runs in it: apt-get install tmux")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try measure(termdata: termdata, store: folder.appendingPathComponent("ToDo.sqlite"), type: .sqlite, label: "SQLite", folder: folder)
        if let base = ProcessInfo.processInfo.environment["TERMDATA_BENCH_POSTGRES"] {
            let schema = "bench_live_\(UUID().uuidString.prefix(8).lowercased())"
            let url = URL(string: base + (base.contains("?") ? "&" : "?") + "schema=\(schema)")!
            try measure(termdata: termdata, store: url, type: .postgres, label: "PostgreSQL", folder: folder)
        }
    }

    static func measure(termdata: URL, store url: URL, type: StoreType, label: String, folder: URL) throws {
        // This program writes through a store of its own: another connection, as another program has.
        let writer = try ToDoStore.open(at: url, type: type)
        let item = try require(try writer.context.fetch(FetchRequest(entityName: "ToDo")).first)
        let terminal = try Terminal(folder: folder, command: [termdata.path, "--store", url.isFileURL ? url.path : url.absoluteString])
        defer {
            terminal.close()
            // A server's schema goes with the run, as a file's folder does.
            if let server = writer.coordinator.stores.first as? PostgresStore {
                _ = try? server.plainRows(#"DROP SCHEMA "\#(server.location.schema)" CASCADE"#)
            }
            for store in writer.coordinator.stores { store.close() }
        }
        _ = try terminal.waitFor(timeout: 30) { $0.contains("Welcome!") }
        var delays: [Double] = []
        for i in 0..<20 {
            // At no fixed time after the last change showed: the application's loop has a beat.
            usleep(UInt32.random(in: 0...100_000))
            let name = "Live \(i) from elsewhere"
            item["name"] = .string(name)
            try writer.context.save()
            let saved = DispatchTime.now().uptimeNanoseconds
            _ = try terminal.waitFor(timeout: 10) { $0.contains(name) }
            delays.append(Double(DispatchTime.now().uptimeNanoseconds - saved) / 1e6)
        }
        delays.sort()
        print(String(format: "%@: another program's save to the ToDo screen: min %.0f ms, median %.0f ms, max %.0f ms (20 saves, the screen read every 2 ms)",
                     label, delays[0], delays[delays.count / 2], delays.last!))
    }

    private static func require<T>(_ value: T?) throws -> T {
        guard let value else { throw BenchmarkFailure("the store has no item") }
        return value
    }

    /// The application on a pseudo-terminal of a tmux server of its own.
    final class Terminal {
        let socket = "termdata-bench-\(UUID().uuidString.prefix(8))"

        init(folder: URL, command: [String]) throws {
            let environment = ["LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TERM=xterm-256color", "XDG_STATE_HOME=\(folder.path)"]
            try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "env"] + environment + command)
        }

        func close() { _ = try? Self.run(["tmux", "-L", socket, "kill-server"]) }

        func tmux(_ arguments: [String]) throws {
            let result = try Self.run(["tmux", "-L", socket] + arguments)
            guard result.status == 0 else { throw BenchmarkFailure("tmux \(arguments.joined(separator: " ")): \(result.output)") }
        }

        /// Reads the screen every 2 ms until `condition` holds.
        func waitFor(timeout: Double, _ condition: (String) -> Bool) throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                let screen = try Self.run(["tmux", "-L", socket, "capture-pane", "-p"]).output
                if condition(screen) { return screen }
                guard Date() < deadline else { throw BenchmarkFailure("the screen did not show it within \(timeout) s:\n\(screen)") }
                usleep(2_000)
            }
        }

        /// Runs a program found on PATH with its output in a file, spawned and reaped
        /// directly: Foundation's `Process` waits for every holder of the child's files, and
        /// the tmux server the first call starts holds them for good.
        static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-\(UUID().uuidString)").path
            defer { unlink(output) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            let argv = (["/usr/bin/env"] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, environ)
            guard spawned == 0 else { throw BenchmarkFailure("cannot start \(arguments[0]): error \(spawned)") }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            return (exit, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
        }
    }
}
