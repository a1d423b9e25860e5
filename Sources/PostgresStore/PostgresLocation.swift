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
    /// The server's host name or address; `localhost` when neither the URL nor `PGHOST` gives one.
    public var host: String
    /// The server's TCP port, from 1 to 65535; 5432 unless given.
    public var port: Int
    /// The user to connect as; by default the login name.
    public var user: String
    /// The password to connect with; nil when neither the URL, `PGPASSWORD` nor a password file gives one.
    public var password: String?
    /// The database that holds the store; by default named as the user.
    public var database: String
    /// The schema of the database whose tables hold the store; `public` unless given.
    public var schema: String
    /// Whether the connection is encrypted, and how the server is checked: libpq's `sslmode`.
    public var sslMode: SSLMode = .prefer
    /// The certificates that vouch for the server (libpq's `sslrootcert`): a PEM file, or nil
    /// for the system's. With one given, `require` checks the server's certificate as
    /// `verify-ca` does, as libpq does.
    public var sslRootCertificate: String?

    /// libpq's `sslmode`, with its meanings.
    public enum SSLMode: String, Sendable, Hashable, CaseIterable {
        /// Never encrypted.
        case disable
        /// Encrypted only where the server insists; here, as the server never insists, never.
        case allow
        /// Encrypted when the server offers it, not checked (libpq's default, and this one's).
        case prefer
        /// Encrypted, or no connection; the certificate is not checked.
        case require
        /// Encrypted, the certificate signed by a trusted authority.
        case verifyCA = "verify-ca"
        /// Encrypted, the certificate signed by a trusted authority and naming the host.
        case verifyFull = "verify-full"
    }

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
        var sslMode = try environment["PGSSLMODE"].map { try Self.sslMode($0, from: "PGSSLMODE ") } ?? .prefer
        var sslRootCertificate = environment["PGSSLROOTCERT"].flatMap { $0.isEmpty || $0 == "system" ? nil : $0 }
        for item in components.queryItems ?? [] {
            switch item.name {
            case "schema", "currentSchema", "search_path":
                guard let value = item.value, !value.isEmpty else { throw PostgresStoreError.badLocation("schema= needs a name") }
                schema = value
            case "sslmode":
                sslMode = try Self.sslMode(item.value ?? "", from: "sslmode=")
            case "sslrootcert":
                guard let value = item.value, !value.isEmpty else { throw PostgresStoreError.badLocation("sslrootcert= needs a file") }
                sslRootCertificate = value
            case "application_name", "fallback_application_name", "connect_timeout", "client_encoding", "keepalives", "keepalives_idle", "target_session_attrs":
                break   // harmless to leave unread
            default:
                throw PostgresStoreError.badLocation("“\(item.name)=” is not an option a postgres:// URL takes here (it takes schema=, sslmode=, sslrootcert=, application_name=, connect_timeout=)")
            }
        }
        let password = components.password.flatMap { $0.removingPercentEncoding } ?? environment["PGPASSWORD"]
            ?? Self.passwordFile(environment: environment).flatMap {
                Self.password(in: $0, host: host, port: port, database: database, user: user)
            }
        if sslRootCertificate == "system" { sslRootCertificate = nil }
        // A certificate is checked against the host's name; an address has none to give.
        if sslMode == .verifyFull, Self.isAddress(host) {
            throw PostgresStoreError.badLocation(
                "sslmode=verify-full checks that the server's certificate names the host, and “\(host)” is an address, not a name: "
                    + "connect by the name the certificate gives, or use sslmode=verify-ca")
        }
        self.init(host: host, port: port, user: user, password: password, database: database, schema: schema,
                  sslMode: sslMode, sslRootCertificate: sslRootCertificate)
    }

    private static func sslMode(_ text: String, from source: String) throws -> SSLMode {
        guard let mode = SSLMode(rawValue: text) else {
            throw PostgresStoreError.badLocation(
                "\(source)“\(text)” is not an sslmode; it is one of " + SSLMode.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return mode
    }

    /// Whether a host is an IPv4 or IPv6 address rather than a name.
    static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
    }

    /// A location given part by part; neither the environment nor a password file is read.
    public init(host: String, port: Int = 5432, user: String, password: String? = nil, database: String, schema: String = "public",
                sslMode: SSLMode = .prefer, sslRootCertificate: String? = nil) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.schema = schema
        self.sslMode = sslMode
        self.sslRootCertificate = sslRootCertificate
    }

    /// The location as a URL, without its password: what messages and the store's `url` show.
    public var url: URL {
        var components = URLComponents()
        components.scheme = "postgres"
        components.user = user
        components.host = host
        components.port = port
        components.path = "/" + database
        var items: [URLQueryItem] = []
        if schema != "public" { items.append(URLQueryItem(name: "schema", value: schema)) }
        if sslMode != .prefer { items.append(URLQueryItem(name: "sslmode", value: sslMode.rawValue)) }
        if let sslRootCertificate { items.append(URLQueryItem(name: "sslrootcert", value: sslRootCertificate)) }
        if !items.isEmpty { components.queryItems = items }
        return components.url!
    }

    /// The location as a `postgres://` URL, without its password.
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
