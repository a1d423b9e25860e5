import Foundation
import Testing
import PostgresStore

@Suite("PostgreSQL store locations")
struct PostgresLocationTests {
    @Test("a URL gives host, port, user, password, database and schema")
    func fullURL() throws {
        let location = try PostgresLocation(url: URL(string: "postgres://ann:s%40cret@db.example.com:6543/team?schema=todo")!, environment: [:])
        #expect(location == PostgresLocation(host: "db.example.com", port: 6543, user: "ann", password: "s@cret", database: "team", schema: "todo"))
        #expect(location.description == "postgres://ann@db.example.com:6543/team?schema=todo", "no password in what is shown")
    }

    @Test("what the URL leaves out comes from PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE")
    func environment() throws {
        let environment = ["PGHOST": "pg.internal", "PGPORT": "5433", "PGUSER": "bob", "PGPASSWORD": "pw", "PGDATABASE": "shared"]
        let location = try PostgresLocation(url: URL(string: "postgresql://")!, environment: environment)
        #expect(location == PostgresLocation(host: "pg.internal", port: 5433, user: "bob", password: "pw", database: "shared", schema: "public"))
        let urlWins = try PostgresLocation(url: URL(string: "postgres://carol@here/own")!, environment: environment)
        #expect(urlWins.host == "here" && urlWins.user == "carol" && urlWins.database == "own" && urlWins.port == 5433)
    }

    @Test("a password comes from the first fitting line of PGPASSFILE, with * and escapes")
    func passwordFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)")
        try """
        # host:port:database:user:password
        other:5432:team:ann:wrong
        db.example.com:5432:team:ann:a\\:b\\\\c
        *:*:*:ann:fallback
        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let environment = ["PGPASSFILE": file.path]
        #expect(try PostgresLocation(url: URL(string: "postgres://ann@db.example.com/team")!, environment: environment).password == "a:b\\c")
        #expect(try PostgresLocation(url: URL(string: "postgres://ann@elsewhere/x")!, environment: environment).password == "fallback")
        #expect(try PostgresLocation(url: URL(string: "postgres://zed@elsewhere/x")!, environment: environment).password == nil)
    }

    @Test("only postgres:// and postgresql:// name a server; a bad PGPORT is named")
    func recognising() throws {
        #expect(PostgresLocation.isPostgresURL("postgres://h/d"))
        #expect(PostgresLocation.isPostgresURL("PostgreSQL://h/d"))
        #expect(!PostgresLocation.isPostgresURL("postgres:/d"))
        #expect(!PostgresLocation.isPostgresURL("ToDo.sqlite"))
        let error = #expect(throws: PostgresStoreError.self) {
            try PostgresLocation(url: URL(string: "postgres://h/d")!, environment: ["PGPORT": "fifty"])
        }
        #expect(error?.description.contains("PGPORT is “fifty”") == true)
    }

    @Test("a port past 65535 is refused, not taken modulo 65536", arguments: ["65536", "70000", "0"])
    func portOutOfRange(_ port: String) throws {
        let error = #expect(throws: PostgresStoreError.self) {
            try PostgresLocation(url: URL(string: "postgres://ann@db.example.com:\(port)/team")!, environment: [:])
        }
        #expect(error?.description.contains("a port is a number from 1 to 65535") == true, "\(String(describing: error))")
    }

    @Test("sslmode and sslrootcert are read as libpq reads them, from the URL or PGSSLMODE and PGSSLROOTCERT; prefer is the default")
    func sslMode() throws {
        func location(_ query: String, host: String = "db.example.com", environment: [String: String] = [:]) throws -> PostgresLocation {
            try PostgresLocation(url: URL(string: "postgres://ann@\(host)/team\(query)")!, environment: environment)
        }
        #expect(try location("").sslMode == .prefer)
        for mode in PostgresLocation.SSLMode.allCases {
            #expect(try location("?sslmode=\(mode.rawValue)").sslMode == mode)
        }
        let verified = try location("?sslmode=verify-full&sslrootcert=/etc/ca.pem")
        #expect(verified.sslRootCertificate == "/etc/ca.pem")
        #expect(verified.description == "postgres://ann@db.example.com:5432/team?sslmode=verify-full&sslrootcert=/etc/ca.pem", "shown, as a choice made")
        #expect(try location("", environment: ["PGSSLMODE": "require", "PGSSLROOTCERT": "/ca.pem"]).sslMode == .require)
        #expect(try location("?sslmode=disable", environment: ["PGSSLMODE": "require"]).sslMode == .disable, "the URL wins")
        let unknown = #expect(throws: PostgresStoreError.self) { try location("?sslmode=required") }
        #expect(unknown?.description.contains("sslmode=“required” is not an sslmode; it is one of disable, allow, prefer, require, verify-ca, verify-full") == true,
                "\(String(describing: unknown))")
        let address = #expect(throws: PostgresStoreError.self) { try location("?sslmode=verify-full", host: "10.0.0.7") }
        #expect(address?.description.contains("“10.0.0.7” is an address, not a name") == true, "\(String(describing: address))")
        let error = #expect(throws: PostgresStoreError.self) {
            try PostgresLocation(url: URL(string: "postgres://ann@db.example.com/team?sslmod=require")!, environment: [:])
        }
        #expect(error?.description.contains("“sslmod=” is not an option") == true, "a misspelt option is named: \(String(describing: error))")
    }
}
