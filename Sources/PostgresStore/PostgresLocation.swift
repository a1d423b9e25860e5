import Foundation

/// Where a PostgreSQL store lives: a server, a database and a schema, with the user and
/// password to connect as.
///
/// It is read as PostgreSQL's own tools read a connection: the URL first
/// (`postgres://user:password@host:port/database?schema=NAME`), then the `PGHOST`,
/// `PGPORT`, `PGUSER`, `PGPASSWORD` and `PGDATABASE` environment variables for what the URL
/// leaves out, then `~/.pgpass` (or `PGPASSFILE`) for a password, then the defaults: the
/// local host, port 5432, the login name as user and as database. The schema defaults to
/// `public`.
///
/// ```swift
/// let location = try PostgresLocation(url: URL(string: "postgres://ann@db.example.com/team?schema=todo")!)
/// location.host       // db.example.com
/// location.schema     // todo
/// ```
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var schema: String

    /// Whether a store argument names a PostgreSQL store rather than a file.
    public static func isPostgresURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// The location a URL names, with the environment's and `~/.pgpass`'s help.
    public init(url: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql",
              let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw PostgresStoreError.badLocation("“\(url.absoluteString)” is not a postgres:// URL")
        }
        let login = ProcessInfo.processInfo.userName
        let host = components.host.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding } ?? environment["PGHOST"] ?? "localhost"
        var port = 5432
        if let p = components.port {
            // Foundation reads any digits as a port; a connection would take them modulo 65536.
            guard (1...65535).contains(p) else {
                throw PostgresStoreError.badLocation("“\(url.absoluteString)” names the port \(p); a port is a number from 1 to 65535")
            }
            port = p
        } else if let text = environment["PGPORT"] {
            guard let p = Int(text), (1...65535).contains(p) else { throw PostgresStoreError.badLocation("PGPORT is “\(text)”, not a port number") }
            port = p
        }
        let user = components.user.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding } ?? environment["PGUSER"] ?? login
        let path = String(components.path.drop { $0 == "/" }).removingPercentEncoding ?? ""
        let database = path.isEmpty ? (environment["PGDATABASE"] ?? user) : path
        guard !database.contains("/") else {
            throw PostgresStoreError.badLocation("“\(url.absoluteString)” names the database “\(database)”; a database name has no “/”")
        }
        var schema = "public"
        for item in components.queryItems ?? [] {
            switch item.name {
            case "schema", "currentSchema", "search_path":
                guard let value = item.value, !value.isEmpty else { throw PostgresStoreError.badLocation("schema= needs a name") }
                schema = value
            case "sslmode":
                // Connections are made without TLS: what libpq's disable, allow and prefer may
                // end in. A mode that insists on TLS is refused rather than quietly not met.
                let mode = item.value ?? ""
                guard ["disable", "allow", "prefer"].contains(mode) else {
                    throw PostgresStoreError.badLocation(
                        "sslmode=\(mode) asks for an encrypted connection, and connections here are not encrypted; "
                            + "reach the server through an SSH tunnel or on a private network, with sslmode=disable")
                }
            case "application_name", "fallback_application_name", "connect_timeout", "client_encoding", "keepalives", "keepalives_idle", "target_session_attrs":
                break   // harmless to leave unread
            default:
                throw PostgresStoreError.badLocation("“\(item.name)=” is not an option a postgres:// URL takes here (it takes schema=, sslmode=, application_name=, connect_timeout=)")
            }
        }
        let password = components.password.flatMap { $0.removingPercentEncoding } ?? environment["PGPASSWORD"]
            ?? Self.passwordFile(environment: environment).flatMap {
                Self.password(in: $0, host: host, port: port, database: database, user: user)
            }
        self.init(host: host, port: port, user: user, password: password, database: database, schema: schema)
    }

    public init(host: String, port: Int = 5432, user: String, password: String? = nil, database: String, schema: String = "public") {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.schema = schema
    }

    /// The location as a URL, without its password: what messages and the store's `url` show.
    public var url: URL {
        var components = URLComponents()
        components.scheme = "postgres"
        components.user = user
        components.host = host
        components.port = port
        components.path = "/" + database
        if schema != "public" { components.queryItems = [URLQueryItem(name: "schema", value: schema)] }
        return components.url!
    }

    public var description: String { url.absoluteString }

    // MARK: ~/.pgpass

    /// The password file PostgreSQL's tools read: `PGPASSFILE`, else `~/.pgpass`.
    static func passwordFile(environment: [String: String]) -> String? {
        let path = environment["PGPASSFILE"] ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.pgpass"
        return try? String(contentsOfFile: path, encoding: .utf8)
    }

    /// The password of the first line of a `.pgpass` file that fits: each line is
    /// `host:port:database:user:password`, `*` fits anything, and `\` escapes `:` and `\`.
    static func password(in file: String, host: String, port: Int, database: String, user: String) -> String? {
        for line in file.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            var fields: [String] = [""]
            var escaped = false
            for c in line {
                if escaped { fields[fields.count - 1].append(c); escaped = false; continue }
                if c == "\\" { escaped = true; continue }
                if c == ":", fields.count < 5 { fields.append(""); continue }
                fields[fields.count - 1].append(c)
            }
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) {
                return fields[4]
            }
        }
        return nil
    }
}
