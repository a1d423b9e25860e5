import Foundation
import ObjectGraph
import PostgresNIO
import SQLSyntax

extension PostgresStore: ExplainingStore {
    /// How a fetch runs on the server: the statement `execute` sends, its bound values,
    /// PostgreSQL's plan (`EXPLAIN`), and the time to run it and read every row it returns.
    public func explain(_ request: StoreRequest) throws -> FetchExplanation {
        let query = try FetchQuery(schema: layout, request: request, flavor: flavor)
        let rendered: RenderedSQL
        switch request.fetch.resultType {
        case .count: rendered = Self.dialect.render(try query.selectCount())
        case .dictionaries: rendered = Self.dialect.render(try query.selectDictionaries().select)
        case .managedObjects, .objectIDs: rendered = Self.dialect.render(try query.selectIDs())
        }
        return try reading { session in
            let plan = try session.run(RenderedSQL(sql: "EXPLAIN " + rendered.sql, arguments: rendered.arguments)).map { row in
                try row.first.map(PostgresValueCoding.plainValue)?.stringValue ?? ""
            }
            let start = DispatchTime.now().uptimeNanoseconds
            let rows = try session.run(rendered).count
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let steps = plan.map { $0.replacingOccurrences(of: "->  ", with: "") }
            let indexes = steps.compactMap { step -> String? in
                for marker in ["Index Only Scan using ", "Index Scan using ", "Index Scan Backward using ", "Bitmap Index Scan on "] {
                    if let found = step.range(of: marker) {
                        return String(step[found.upperBound...].prefix { $0 != " " }).replacingOccurrences(of: "\"", with: "")
                    }
                }
                return nil
            }
            let root = query.rootTable.lowercased()
            return FetchExplanation(
                statement: rendered.sql, arguments: rendered.arguments.map(\.description), plan: plan, seconds: seconds, rows: rows,
                readsWholeTable: steps.contains {
                    $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\"", with: "").lowercased().hasPrefix("seq scan on \(root) ")
                },
                sorts: steps.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Sort") || $0.contains("Incremental Sort") },
                indexes: indexes)
        }
    }
}
