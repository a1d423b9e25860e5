import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import SQLSyntax
import Synchronization

/// The store's connections to its server: a pool, so that contexts on several queues read at
/// once, each statement on a connection of its own. A connection that fails is dropped and
/// the next statement connects anew, so a server that restarts is found again.
///
/// The store's calls are synchronous, as the coordinator makes them; each waits for
/// postgres-nio's event loop, never on it.
final class PostgresConnections: Sendable {
    let location: PostgresLocation
    private let group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    private let idle = Mutex<(connections: [PostgresConnection], closed: Bool)>(([], false))
    private let nextID = Atomic<Int>(0)
    private static let logger = Logger(label: "termdata.postgres")
    /// More idle connections than this are closed rather than kept.
    private let keptIdle = 8

    /// How each connection speaks TLS, made once: its context reads the trusted
    /// certificates, which every connection shares.
    private let tls: Result<PostgresConnection.Configuration.TLS, PostgresStoreError>

    init(location: PostgresLocation) {
        self.location = location
        tls = Result { () throws(PostgresStoreError) in try Self.tls(for: location) }
    }

    /// libpq's `sslmode` as postgres-nio's TLS setting: `prefer` tries TLS and takes a plain
    /// connection from a server without it; `require` and the `verify` modes take none.
    static func tls(for location: PostgresLocation) throws(PostgresStoreError) -> PostgresConnection.Configuration.TLS {
        func context(_ verification: CertificateVerification) throws(PostgresStoreError) -> NIOSSLContext {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = verification
            if let file = location.sslRootCertificate {
                guard FileManager.default.isReadableFile(atPath: file) else {
                    throw .badLocation("sslrootcert names \(file), which cannot be read")
                }
                configuration.trustRoots = .file(file)
            }
            do { return try NIOSSLContext(configuration: configuration) } catch {
                throw .badLocation("the certificates of sslrootcert (\(location.sslRootCertificate ?? "the system's")) cannot be used: \(error)")
            }
        }
        switch location.sslMode {
        case .disable, .allow: return .disable
        case .prefer: return .prefer(try context(.none))
        case .require: return .require(try context(location.sslRootCertificate == nil ? .none : .noHostnameVerification))
        case .verifyCA: return .require(try context(.noHostnameVerification))
        case .verifyFull: return .require(try context(.fullVerification))
        }
    }

    /// Runs `body` on a connection of the pool, connecting one when none is idle.
    func withConnection<T>(_ body: (Session) throws -> T) throws -> T {
        let connection = try take()
        let session = Session(connection: connection, location: location)
        do {
            let result = try body(session)
            give(connection)
            return result
        } catch {
            // A connection whose statement failed on the server is still good; one that lost
            // its server is not.
            if connection.isClosed || Self.isConnectionLoss(error) { Self.discard(connection) } else { give(connection) }
            throw error
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func inTransaction<T>(_ body: (Session) throws -> T) throws -> T {
        try withConnection { session in
            try session.execute("BEGIN")
            do {
                let result = try body(session)
                try session.execute("COMMIT")
                return result
            } catch {
                if !session.connection.isClosed { try? session.execute("ROLLBACK") }
                throw error
            }
        }
    }

    deinit { close() }

    func close() {
        let connections = idle.withLock { state in
            state.closed = true
            defer { state.connections = [] }
            return state.connections
        }
        for connection in connections { Self.discard(connection) }
    }

    private func take() throws -> PostgresConnection {
        let reused = idle.withLock { state -> PostgresConnection? in
            while let connection = state.connections.popLast() {
                if !connection.isClosed { return connection }
            }
            return nil
        }
        if let reused { return reused }
        return try connect()
    }

    private func give(_ connection: PostgresConnection) {
        let keep = idle.withLock { state in
            guard !state.closed, !connection.isClosed, state.connections.count < keptIdle else { return false }
            state.connections.append(connection)
            return true
        }
        if !keep { Self.discard(connection) }
    }

    /// A new connection, its search path set to the store's schema.
    func connect() throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user,
            password: location.password, database: location.database, tls: try tls.get())
        configuration.options.connectTimeout = .seconds(10)
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        let connection: PostgresConnection
        do {
            connection = try PostgresConnection.connect(on: group.next(), configuration: configuration, id: id, logger: Self.logger).wait()
        } catch {
            throw PostgresStoreError.unreachable(location: location.description, reason: Self.describe(error))
        }
        let session = Session(connection: connection, location: location)
        do {
            try session.execute("SET search_path TO " + PostgresDialect().quote(location.schema))
        } catch {
            Self.discard(connection)
            throw error
        }
        return connection
    }

    /// Closes a connection and waits until it is closed (postgres-nio requires a connection
    /// to be closed before it is released). Never called on an event loop.
    static func discard(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        try? closing.wait()
    }

    /// How long a statement whose connection closed under it may take to report its own
    /// error (the server's "terminating connection", which says more) before the closing is
    /// reported instead.
    static let closingGrace: DispatchTimeInterval = .seconds(2)

    /// How often a statement's wait looks whether its connection has closed.
    static let closingCheck: DispatchTimeInterval = .milliseconds(500)

    /// Waits for a statement's result, or for its connection to close under it. postgres-nio
    /// drops a statement handed to a connection that has just closed without completing its
    /// future (the write to the closed channel fails with nobody told), so waiting on the
    /// future alone waits for ever when the server goes between two statements. The wait
    /// looks at the connection every `closingCheck` rather than asking to be told of its
    /// closing, which would leave a callback on a pooled connection for every statement.
    static func wait<T: Sendable>(for future: EventLoopFuture<T>, on connection: PostgresConnection, location: PostgresLocation) throws -> T {
        future.eventLoop.preconditionNotInEventLoop()
        let outcome = NIOLockedValueBox<Result<T, any Error>?>(nil)
        let ended = DispatchSemaphore(value: 0)
        future.whenComplete { result in
            outcome.withLockedValue { $0 = result }
            ended.signal()
        }
        while ended.wait(timeout: .now() + closingCheck) == .timedOut {
            guard connection.isClosed else { continue }
            if ended.wait(timeout: .now() + closingGrace) == .success { break }
            throw PostgresStoreError.unreachable(location: location.description, reason: "the server closed the connection")
        }
        return try outcome.withLockedValue { $0 }!.get()
    }

    /// Whether an error means the connection is gone, not that a statement was refused.
    static func isConnectionLoss(_ error: any Error) -> Bool {
        if case PostgresStoreError.unreachable = error { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .server: return isServerGoing(error)
        case .queryCancelled, .tooManyParameters, .invalidCommandTag: return false
        default: return true
        }
    }

    /// Whether the server's error says it is ending the connection: shutting down or
    /// restarting (SQLSTATE 57P01 to 57P03, class 57P) or a connection exception (class 08).
    /// The statement did not fail on its merits; the server went.
    static func isServerGoing(_ error: PSQLError) -> Bool {
        guard let state = error.serverInfo?[.sqlState] else { return false }
        return state.hasPrefix("57P") || state.hasPrefix("08")
    }

    /// What went wrong, as a person can act on it: the server's own message where it sent
    /// one, else what happened to the connection.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PostgresStoreError { return error.description }
        guard let error = error as? PSQLError else { return "\(error)" }
        if let info = error.serverInfo, let message = info[.message] {
            var text = message
            if let detail = info[.detail] { text += " (\(detail))" }
            return text
        }
        switch error.code {
        case .sslUnsupported:
            return "the server does not take encrypted connections, and the sslmode given takes no other (sslmode=prefer takes either)"
        case .connectionError where error.underlying is NIOSSLError || error.underlying is BoringSSLError:
            return "the encrypted connection failed (\(error.underlying!)): with sslmode=verify-ca or verify-full the server's certificate must be signed by one sslrootcert trusts"
        case .connectionError:
            return error.underlying.map { "\($0)" } ?? "the connection failed"
        case .serverClosedConnection, .uncleanShutdown:
            return "the server closed the connection"
        case .clientClosedConnection:
            return "the connection was closed"
        case .authMechanismRequiresPassword:
            return "the server asks for a password: give it in the URL, PGPASSWORD or ~/.pgpass"
        default:
            return "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
        }
    }

    /// One connection, lent for a call: runs rendered statements and reads their rows.
    struct Session {
        let connection: PostgresConnection
        let location: PostgresLocation

        /// Runs a statement without bound values (DDL, transaction control).
        func execute(_ sql: String) throws {
            _ = try run(PostgresQuery(unsafeSQL: sql))
        }

        /// Runs a rendered statement and returns its rows, and how many rows it changed.
        @discardableResult
        func run(_ rendered: RenderedSQL) throws -> PostgresQueryResult {
            var bindings = PostgresBindings(capacity: rendered.arguments.count)
            for value in rendered.arguments { try Self.bind(value, into: &bindings) }
            return try run(PostgresQuery(unsafeSQL: rendered.sql, binds: bindings))
        }

        /// Whether the store's schema has a table of this name.
        func hasTable(_ name: String) throws -> Bool {
            // Every name here is bound as a value, never written into the text.
            let found = try run("SELECT to_regclass(format('%I.%I', $1::text, $2::text))", [.text(location.schema), .text(name)])
            return found.first?.first(where: { _ in true })?.bytes != nil
        }

        func hasColumn(_ column: String, in table: String) throws -> Bool {
            let found = try run("SELECT count(*) FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND column_name = $3",
                                [.text(location.schema), .text(table), .text(column)])
            return try found.first.flatMap { try PostgresValueCoding.integer(Array($0)[0]) } == 1
        }

        /// Runs the program's own SQL text with bound values.
        @discardableResult
        func run(_ sql: String, _ values: [SQLValue]) throws -> PostgresQueryResult {
            try run(RenderedSQL(sql: sql, arguments: values))
        }

        func run(_ query: PostgresQuery) throws -> PostgresQueryResult {
            do {
                return try PostgresConnections.wait(for: connection.query(query, logger: PostgresConnections.logger), on: connection, location: location)
            } catch let error as PSQLError where error.code == .server && !PostgresConnections.isServerGoing(error) {
                throw PostgresStoreError.server(PostgresConnections.describe(error))
            } catch let error as PSQLError {
                throw PostgresStoreError.unreachable(location: location.description, reason: PostgresConnections.describe(error))
            }
        }

        static func bind(_ value: SQLValue, into bindings: inout PostgresBindings) throws {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let n): bindings.append(n)
            case .real(let d): bindings.append(d)
            case .text(let s): bindings.append(s)
            case .blob(let d): bindings.append(ByteBuffer(bytes: d))
            case .date(let d): bindings.append(Microseconds(d))
            case .decimal(let d): try bindings.append(d)
            case .uuid(let u): bindings.append(u)
            }
        }
    }
}

extension PostgresQueryResult {
    /// The number of rows an INSERT, UPDATE or DELETE changed.
    var changedRows: Int { metadata.rows ?? 0 }
}
