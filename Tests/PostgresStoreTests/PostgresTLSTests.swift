import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import PostgresStore
import TestSupport

/// Encrypted connections, as libpq's `sslmode` asks for them, against a real server that
/// takes TLS with a certificate of its own and one that does not.
@Suite("PostgreSQL over TLS", .serialized)
struct PostgresTLSTests {
    static let server = Result { try PostgresServer.dedicated(tls: true) }

    /// The TLS server's store URL with these options added.
    func url(_ options: String, host: String? = nil) throws -> URL {
        let server = try Self.server.get()
        var text = server.storeURL().absoluteString + "&" + options
        if let host { text = text.replacingOccurrences(of: "@\(server.host):", with: "@\(host):") }
        return try #require(URL(string: text))
    }

    /// Whether the store's own connection is encrypted, as the server sees it.
    func isEncrypted(_ stack: PostgresTestStack) throws -> Bool {
        try stack.store.plainRows("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")[0][0] == .bool(true)
    }

    @Test("sslmode=require, and prefer (the default) where the server takes TLS, connect encrypted; disable does not")
    func encrypted() throws {
        let required = try PostgresTestStack(model: try ModelFixtures.toDoModel(), url: try url("sslmode=require"))
        try ToDoFixture.fill(required.context)
        #expect(try isEncrypted(required))
        #expect(try required.reopened().context.count(for: FetchRequest(entityName: "ToDo")) > 0, "a save and a read over TLS")
        #expect(try isEncrypted(PostgresTestStack(model: try ModelFixtures.toDoModel(), url: try Self.server.get().storeURL())))
        #expect(try !isEncrypted(PostgresTestStack(model: try ModelFixtures.toDoModel(), url: try url("sslmode=disable"))))
    }

    @Test("verify-ca and verify-full check the server's certificate against sslrootcert; without it the system's authorities refuse it")
    func verified() throws {
        let certificate = try #require(try Self.server.get().certificate).path
        let ca = try PostgresTestStack(model: try ModelFixtures.toDoModel(), url: try url("sslmode=verify-ca&sslrootcert=\(certificate)"))
        #expect(try isEncrypted(ca))
        let full = try PostgresTestStack(model: try ModelFixtures.toDoModel(),
                                         url: try url("sslmode=verify-full&sslrootcert=\(certificate)", host: "localhost"))
        #expect(try isEncrypted(full))
        let untrusted = #expect(throws: PostgresStoreError.self) {
            try PostgresTestStack(model: try ModelFixtures.toDoModel(), url: try url("sslmode=verify-ca"))
        }
        #expect(untrusted?.description.contains("the encrypted connection failed") == true, "\(String(describing: untrusted))")
    }

    @Test("sslmode=require against a server without TLS is refused, saying so; prefer connects in the clear")
    func serverWithoutTLS() throws {
        let plain = try PostgresServer.shared().storeURL()
        let error = #expect(throws: PostgresStoreError.self) {
            try PostgresTestStack(model: try ModelFixtures.toDoModel(), url: try #require(URL(string: plain.absoluteString + "&sslmode=require")))
        }
        #expect(error?.description.contains("the server does not take encrypted connections") == true, "\(String(describing: error))")
        #expect(try !isEncrypted(PostgresTestStack(model: try ModelFixtures.toDoModel(), url: plain)))
    }
}
