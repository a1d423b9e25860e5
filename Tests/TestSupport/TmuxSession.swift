import Foundation

/// A tmux server of its own (a unique `-L` socket) running a shell on a pseudo-terminal,
/// for driving real binaries (the gallery, `termdata`) as a user would.
public final class TmuxSession {
    public let socket = "termdata-test-\(UUID().uuidString.prefix(8))"
    public let directory: URL

    public static var isAvailable: Bool { (try? run(["tmux", "-V"]).status) == 0 }

    /// The built `termdata-gallery` beside the test bundle, or in the package's `.build/debug`.
    public static var galleryBinary: URL? { binary(named: "termdata-gallery") }

    /// A built executable of the package.
    public static func binary(named name: String) -> URL? { Fixtures.builtExecutable(named: name) }

    /// - Throws: when tmux is not installed: the end-to-end tests need it, and say so
    ///   rather than pass without running.
    public init(width: Int, height: Int) throws {
        guard Self.isAvailable else {
            throw TmuxError("tmux is not installed, and the end-to-end tests run the application in it: apt-get install tmux")
        }
        directory = try Fixtures.temporaryDirectory("termdata-tmux")
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)",
                  "env", "-u", "NO_COLOR", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TERM=xterm-256color", "PS1=$ ", "sh"])
        try tmux(["set-option", "-g", "escape-time", "0"])
    }

    deinit {
        // End the pane's processes first: the server waits for them before it exits.
        if let panes = try? tmux(["list-panes", "-a", "-F", "#{pane_pid}"]) {
            for pid in panes.split(separator: "\n").compactMap({ pid_t($0) }) { kill(pid, SIGKILL) }
        }
        _ = try? Self.run(["tmux", "-L", socket, "kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    @discardableResult
    public func tmux(_ arguments: [String]) throws -> String {
        let result = try Self.run(["tmux", "-L", socket] + arguments)
        guard result.status == 0 else {
            throw TmuxError("tmux \(arguments.joined(separator: " ")) failed: \(result.output)")
        }
        return result.output
    }

    /// Type text and press Enter in the shell.
    public func typeLine(_ line: String) throws {
        try tmux(["send-keys", "-l", line])
        try tmux(["send-keys", "Enter"])
    }

    /// Send tmux key names (`j`, `Enter`, `Escape`, `C-c`, `F9`).
    public func send(_ keys: String...) throws {
        for key in keys { try tmux(["send-keys", key]) }
    }

    public func screen() throws -> [String] {
        try tmux(["capture-pane", "-p"]).components(separatedBy: "\n").dropLast().map { String($0) }
    }

    public func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Wait until the screen satisfies `condition` and return it; a screen that never does
    /// within `timeout` seconds throws, showing the last screen, so a test cannot go on as
    /// if what it waited for had happened.
    @discardableResult
    public func waitFor(timeout: Double = 10, sourceLocation: String = #fileID, line: Int = #line,
                        _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var lines = try screen()
        while !condition(lines) {
            guard Date() < deadline else {
                throw TmuxError("\(sourceLocation):\(line): the screen did not become as expected within \(timeout) s; it shows:\n"
                                + lines.joined(separator: "\n"))
            }
            Thread.sleep(forTimeInterval: 0.05)
            lines = try screen()
        }
        return lines
    }

    public func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    public func waitForFile(_ name: String, timeout: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOf: file(name), encoding: .utf8), text.hasSuffix("\n") { return text }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    /// Run a program found on PATH, its output (stdout and stderr) collected in a file,
    /// standard input from `standardInput` or /dev/null. Spawned and reaped directly so
    /// a tmux server forked from it cannot hold the caller up.
    public static func run(_ arguments: [String], environment: [String: String]? = nil,
                    standardInput: String = "/dev/null") throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("termdata-run-\(UUID().uuidString)").path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of this process goes with the program: a server it starts (pg_ctl's
        // postgres) lives on, and kept open a pipe another test had just made for a
        // `termdata` it ran, whose output then never ended. The shell closes every
        // descriptor past standard error, then becomes the program.
        let closing = #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; if [ "$fd" -gt 2 ] && [ -L /proc/$$/fd/$fd ]; then exec {fd}>&-; fi; done; exec "$@""#
        let argv = (["/bin/bash", "-c", closing, "bash"] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in env { free(pointer) } }
        // Children start with default signal handling even if this process ignores some
        // (a shell that ignores SIGHUP would outlive its tmux server).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, &attributes, argv, env)
        guard spawned == 0 else { throw TmuxError("cannot start \(arguments[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return (exitStatus, output)
    }
}

public struct TmuxError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
