import Foundation

/// A throwaway PostgreSQL server for the tests: a cluster made with `initdb` in a temporary
/// folder, listening on loopback at a free port, owned by an unprivileged user when the tests
/// run as root (the server refuses to run as root), and stopped when the test process ends.
///
/// ```swift
/// let server = try PostgresServer.shared()
/// let url = server.storeURL()        // postgres://termdata@127.0.0.1:54873/postgres?schema=t_3f2a…
/// ```
///
/// One server serves every test of a process; each test takes a schema of its own, so tests
/// run in parallel without seeing each other's tables. The server's programs come from
/// `PG_BINDIR`, else `pg_config --bindir`, else the newest of Debian's
/// `/usr/lib/postgresql/<version>/bin`, else `PATH`: Debian keeps `initdb` and `pg_ctl` off
/// `PATH`. Without them the tests fail, naming what to install: they never skip.
public final class PostgresServer: Sendable {
    public let host = "127.0.0.1"
    public let port: Int
    /// The superuser `initdb` made; local connections need no password.
    public let user = "termdata"
    public let folder: URL
    /// The server's certificate (self-signed, for `localhost` and 127.0.0.1), when it speaks TLS.
    public let certificate: URL?
    private let binaries: URL
    private let runner: [String]

    /// The server of this test process, started on first use.
    public static func shared() throws -> PostgresServer { try started.get() }

    private static let started = Result { try PostgresServer() }

    /// A server of its own, for a test that stops and starts it; with `tls`, one that takes
    /// encrypted connections (`ssl = on`) with a certificate made for it by `openssl`.
    public static func dedicated(tls: Bool = false) throws -> PostgresServer { try PostgresServer(tls: tls) }

    public enum Failure: Error, CustomStringConvertible {
        case notInstalled
        case command(String, status: Int32, output: String)

        public var description: String {
            switch self {
            case .notInstalled:
                return "PostgreSQL's server programs (initdb, pg_ctl) were not found: install Debian's postgresql package (.ci/run does) or set PG_BINDIR"
            case .command(let command, let status, let output):
                return "\(command) exited with \(status): \(output)"
            }
        }
    }

    private init(tls: Bool = false) throws {
        guard let binaries = Self.findBinaries() else { throw Failure.notInstalled }
        self.binaries = binaries
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("termdata-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // initdb and postgres refuse to run as root: the cluster belongs to an ordinary user.
        var runner: [String] = []
        if getuid() == 0 {
            let owner = Self.userExists("postgres") ? "postgres" : "nobody"
            runner = ["/usr/sbin/runuser", "-u", owner, "--"]
            try Self.run(["/bin/chown", owner, folder.path])
        }
        self.runner = runner
        if tls {
            // A self-signed certificate naming localhost and 127.0.0.1; the key only its owner reads.
            let crt = folder.appendingPathComponent("server.crt"), key = folder.appendingPathComponent("server.key")
            try Self.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                          "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key.path, "-out", crt.path])
            try Self.run(["/bin/chmod", "600", key.path])
            if let owner = runner.dropFirst(2).first { try Self.run(["/bin/chown", owner, key.path, crt.path]) }
            certificate = crt
        } else {
            certificate = nil
        }
        let data = folder.appendingPathComponent("data")
        try Self.run(runner + [binaries.appendingPathComponent("initdb").path, "-D", data.path, "-U", "termdata",
                               "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        var port = 0
        var lastError: (any Error)?
        for _ in 0..<5 {
            port = Self.freePort()
            do {
                try Self.run(runner + [binaries.appendingPathComponent("pg_ctl").path] + Self.startArguments(folder: folder, port: port, tls: tls))
                lastError = nil
                break
            } catch {
                lastError = error   // the port was taken between asking and binding
            }
        }
        if let lastError { throw lastError }
        self.port = port
        watchOverTestProcess()
    }

    private static func startArguments(folder: URL, port: Int, tls: Bool) -> [String] {
        let ssl = tls ? " -c ssl=on -c ssl_cert_file=\(folder.path)/server.crt -c ssl_key_file=\(folder.path)/server.key" : ""
        return ["-D", folder.appendingPathComponent("data").path, "-l", folder.appendingPathComponent("server.log").path, "-w", "-t", "60",
                "-o", "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" + ssl, "start"]
    }

    private var data: URL { folder.appendingPathComponent("data") }

    /// A store location in a schema of its own, new to this call.
    public func storeURL(schema: String? = nil, database: String = "postgres") -> URL {
        let name = schema ?? "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        return URL(string: "postgres://\(user)@\(host):\(port)/\(database)?schema=\(name)")!
    }

    /// Stops the server at once, as a crash or a pulled cable would (`pg_ctl -m immediate`),
    /// or, `fast`, as an administrator's restart does: each connection is told it is being
    /// terminated (an error from the server), then closed.
    public func stop(fast: Bool = false) throws {
        try run("pg_ctl", ["-D", data.path, "-m", fast ? "fast" : "immediate", "-w", "stop"])
    }

    /// Starts the server again after `stop()`, on the same port.
    public func start() throws {
        try run("pg_ctl", Self.startArguments(folder: folder, port: port, tls: certificate != nil))
    }

    /// A watcher that stops the server and removes its folder once this process has ended,
    /// however it ends. A process that died but is not reaped yet (a zombie, whose parent
    /// may be waiting for its output to close, which the server would hold) counts as
    /// ended: `kill -0` alone would wait on it for ever.
    private func watchOverTestProcess() {
        let stop = (runner + [binaries.appendingPathComponent("pg_ctl").path, "-D", data.path, "-m", "immediate", "stop"])
            .map(Self.shellQuoted).joined(separator: " ")
        let pid = getpid()
        let alive = "s=$(sed 's/.*) //' /proc/\(pid)/stat 2>/dev/null) && [ \"${s%% *}\" != Z ]"
        let script = "while \(alive); do sleep 0.5; done; \(stop) >/dev/null 2>&1; rm -rf \(Self.shellQuoted(folder.path))"
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: "/bin/sh")
        watcher.arguments = ["-c", script]
        watcher.standardInput = FileHandle.nullDevice
        watcher.standardOutput = FileHandle.nullDevice
        watcher.standardError = FileHandle.nullDevice
        try? watcher.run()
    }

    private func run(_ program: String, _ arguments: [String]) throws {
        try Self.run(runner + [binaries.appendingPathComponent(program).path] + arguments)
    }

    /// Runs a command to its end and returns what it printed, spawned and reaped directly
    /// (`TmuxSession.run`): a server that `pg_ctl` starts lives on as a daemon and must not
    /// hold the caller up.
    @discardableResult
    private static func run(_ command: [String]) throws -> String {
        let (status, output) = try TmuxSession.run(command)
        guard status == 0 else { throw Failure.command(command.joined(separator: " "), status: status, output: output) }
        return output
    }

    /// Where `initdb` and `pg_ctl` are.
    private static func findBinaries() -> URL? {
        let fm = FileManager.default
        func has(_ folder: String) -> Bool {
            fm.isExecutableFile(atPath: folder + "/initdb") && fm.isExecutableFile(atPath: folder + "/pg_ctl")
        }
        if let folder = ProcessInfo.processInfo.environment["PG_BINDIR"], has(folder) { return URL(fileURLWithPath: folder) }
        if let folder = try? run(["/bin/sh", "-c", "pg_config --bindir 2>/dev/null"]).trimmingCharacters(in: .whitespacesAndNewlines),
           !folder.isEmpty, has(folder) {
            return URL(fileURLWithPath: folder)
        }
        let versions = ((try? fm.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { $0.compare($1, options: .numeric) == .orderedDescending }
        for version in versions where has("/usr/lib/postgresql/\(version)/bin") {
            return URL(fileURLWithPath: "/usr/lib/postgresql/\(version)/bin")
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) where has(folder) {
            return URL(fileURLWithPath: folder)
        }
        return nil
    }

    private static func userExists(_ name: String) -> Bool { getpwnam(name) != nil }

    /// A TCP port on loopback that nothing listens on now.
    private static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func shellQuoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
