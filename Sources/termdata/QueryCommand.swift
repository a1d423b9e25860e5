import ArgumentParser
import Foundation
import Interchange
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TerminalUI

/// `termdata query [--store PATH --model MODEL --type T] ENTITY [PREDICATE] [--arg JSON]... ...`
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Fetch objects of an entity with a predicate, sort, limit and offset.",
        discussion: """
        The predicate uses the NSPredicate format language. --arg fills %@ and %K in order with \
        JSON values ({"$date": "2024-05-01T00:00:00Z"} for a date); --var NAME=JSON fills $NAME.
        --evaluate memory fetches without the predicate and evaluates it in memory, to compare
        with the store's own evaluation.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json, csv }
    enum Evaluation: String, ExpressibleByArgument, CaseIterable { case store, memory }

    @OptionGroup var storeArguments: StoreArguments

    @Argument(help: "The entity to fetch.")
    var entity: String

    @Argument(help: "A predicate, such as \"name BEGINSWITH[c] %@\".")
    var predicate: String?

    // A negative value such as `--arg -5` or `--limit -1` is the option's value, not an option.
    @Option(name: .customLong("arg"), parsing: .unconditionalSingleValue,
            help: "A JSON value for the next %@ or %K: 5, '\"text\"' (quoted), true, null or '{\"$date\": \"2026-12-24\"}'.")
    var arguments: [String] = []

    @Option(name: .customLong("var"), help: "NAME=JSON: a value for $NAME.")
    var variables: [String] = []

    @Option(help: "KEY or KEY:desc; repeat for more keys.")
    var sort: [String] = []

    @Option(parsing: .unconditional, help: "The most objects to print (at least 1; no limit without it).")
    var limit: Int?

    @Option(parsing: .unconditional, help: "How many matching objects to skip.")
    var offset: Int?

    @Option(help: "Comma-separated keys (key paths) to print; all attributes by default.")
    var keys: String?

    @Option(name: .customLong("group-by"),
            help: "A key or key path (category.name): print each of its values with how many matching objects have it, most first.")
    var groupBy: String?

    @Option(help: "With --group-by: count numbers in ranges of this width (10, 0.5), or dates by year, month, week, day or hour.")
    var bucket: String?

    @Flag(help: "Print only the number of matching objects.")
    var count = false

    @Option(help: "Output format: table, json or csv.")
    var format: Format = .table

    @Option(help: "Where the predicate is evaluated: store or memory.")
    var evaluate: Evaluation = .store

    @Flag(help: "Print how the store runs the fetch instead of its results: the statement with its values, the plan, the time, and the index that would serve it.")
    var explain = false

    /// Values no query could take are usage mistakes, reported as the parser reports its own.
    func validate() throws {
        // A fetch limit of 0 means no limit, which `--limit 0` would not say to a reader.
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1 (leave it out for no limit)") }
        if let offset, offset < 0 { throw ValidationError("--offset must not be negative") }
        if let bucket {
            guard groupBy != nil else { throw ValidationError("--bucket goes with --group-by") }
            guard ValueBucketing(bucket) != nil else {
                throw ValidationError("--bucket \(bucket): a width greater than 0, or year, month, week, day or hour")
            }
            if limit != nil { throw ValidationError("--bucket lists every range; it does not take --limit") }
        }
        if explain, let other = [(groupBy != nil, "--group-by"), (evaluate == .memory, "--evaluate memory"), (keys != nil, "--keys"),
                                 (format != .table, "--format")].first(where: \.0)?.1 {
            throw ValidationError("--explain shows how the store runs the fetch; it does not take \(other)")
        }
        if groupBy != nil {
            let others = [(count, "--count"), (keys != nil, "--keys"), (!sort.isEmpty, "--sort"), (offset != nil, "--offset"),
                          (evaluate == .memory, "--evaluate memory")].filter(\.0).map(\.1)
            if let first = others.first {
                throw ValidationError("--group-by prints values and counts, most first; it does not take \(first)")
            }
        }
    }

    func run() throws {
        let model = try storeArguments.loadModel()
        let entity = try StoreArguments.entity(self.entity, in: model)
        let objectPredicate = try parsedPredicate()
        let descriptors = try sort.map { spec -> ObjectSortDescriptor in
            let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
            guard let key = parts.first, !key.isEmpty else { throw CommandFailure("empty --sort key") }
            try CommandFailure.rethrowing { try KeyHint.checkKeyPath(key, from: entity, in: model) }
            let descending = parts.count > 1 && ["desc", "descending"].contains(parts[1].lowercased())
            if parts.count > 1, !descending, !["asc", "ascending"].contains(parts[1].lowercased()) {
                throw CommandFailure("--sort \(spec): the direction is asc or desc")
            }
            return ObjectSortDescriptor(key: key, ascending: !descending)
        }
        let columns = try keys.map { text in
            let keys = try (text.isEmpty ? [] : text.split(separator: ",", omittingEmptySubsequences: false)).map { k -> String in
                let key = k.trimmingCharacters(in: .whitespaces)
                guard !key.isEmpty else { throw CommandFailure("--keys has an empty key in '\(text)'") }
                try CommandFailure.rethrowing { try KeyHint.checkKeyPath(key, from: entity, in: model) }
                return key
            }
            guard !keys.isEmpty else { throw CommandFailure("--keys names no key; leave it out to print every attribute") }
            return keys
        } ?? entity.storedAttributes.map(\.name)

        let context = try storeArguments.open(model: model, readOnly: true)
        if let groupBy {
            try CommandFailure.rethrowing { try KeyHint.checkKeyPath(groupBy, from: entity, in: model) }
            let counts: ValueCounts
            do {
                if let bucketing = bucket.flatMap(ValueBucketing.init) {
                    guard let type = model.attribute(atKeyPath: groupBy, from: entity)?.type else {
                        throw CommandFailure("--bucket needs an attribute at the end of \(groupBy), not a relationship")
                    }
                    counts = try ValueCounts(keyPath: groupBy, entityName: entity.name, predicate: objectPredicate,
                                             bucketing: bucketing, type: type, in: context)
                } else {
                    counts = try ValueCounts(keyPath: groupBy, entityName: entity.name, predicate: objectPredicate, limit: limit, in: context)
                }
            } catch let failure as CommandFailure {
                throw failure
            } catch {
                throw CommandFailure("\(error)" + Self.keyHint(for: error, in: model))
            }
            try outputCounts(counts)
            return
        }
        var objects: [ManagedObject]
        do {
            switch evaluate {
            case .store:
                var request = FetchRequest(entityName: entity.name, predicate: objectPredicate, sortDescriptors: descriptors,
                                           fetchLimit: limit ?? 0, fetchOffset: offset ?? 0)
                if explain {
                    if count { request.resultType = .count }
                    var output = StandardOutput()
                    for line in try context.explain(request).lines { try output.line(line) }
                    try output.flush()
                    return
                }
                if count {
                    try StandardOutput.line(String(try context.count(for: request)))
                    return
                }
                objects = Array(try context.fetch(request))
            case .memory:
                objects = try context.fetchEvaluatingInMemory(FetchRequest(
                    entityName: entity.name, predicate: objectPredicate, sortDescriptors: descriptors,
                    fetchLimit: limit ?? 0, fetchOffset: offset ?? 0))
                if count {
                    try StandardOutput.line(String(objects.count))
                    return
                }
            }
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw CommandFailure("\(error)" + Self.keyHint(for: error, in: model))
        }
        try output(objects, columns: columns)
    }

    private func parsedPredicate() throws -> ObjectPredicate? {
        guard let predicate else { return nil }
        let args = try arguments.enumerated().map { i, text in try JSONValue.parse(text, what: "--arg \(i + 1)").predicateValue() }
        var vars: [String: ObjectValue] = [:]
        for spec in variables {
            guard let eq = spec.firstIndex(of: "=") else { throw CommandFailure("--var \(spec): expected NAME=JSON") }
            let name = String(spec[..<eq]).trimmingCharacters(in: CharacterSet(charactersIn: "$ "))
            guard !name.isEmpty else { throw CommandFailure("--var \(spec): the variable has no name (NAME=JSON)") }
            vars[name] = try JSONValue.parse(String(spec[spec.index(after: eq)...]), what: "--var \(name)").predicateValue()
        }
        do {
            var parsed = try ObjectPredicate(format: predicate, usingAll: args)
            parsed = try parsed.substitutingVariables(vars)
            return parsed
        } catch PredicateArgumentError.unusedArguments(let given, let taken) {
            throw CommandFailure("--arg \(taken + 1) is not used: the predicate has fewer %@ and %K than the \(given) --arg values given")
        } catch let error as PredicateSyntaxError {
            throw CommandFailure("invalid predicate: " + ErrorText.message(for: error, cellWidth: { DisplayWidth.of($0) }))
        } catch {
            throw CommandFailure("invalid predicate: \(error)")
        }
    }

    /// The closest key, for a predicate that names one its entity lacks.
    private static func keyHint(for error: Error, in model: ManagedObjectModel) -> String {
        let missing: (entity: String, key: String)
        switch error {
        case SQLiteStoreError.unknownKey(let entity, let key):
            missing = (entity, key)
        case let error as PredicateEvaluationError where error.reason == .unknownKey:
            guard let key = error.key, let entity = error.entityName else { return "" }
            missing = (entity, key)
        default:
            return ""
        }
        return model.entity(named: missing.entity).map { KeyHint.text(for: missing.key, in: $0) } ?? ""
    }

    /// Each value with its count: a table, JSON objects or CSV rows of the key and `count`.
    private func outputCounts(_ counts: ValueCounts) throws {
        let columns = [counts.keyPath, "count"] + (counts.bucketing == nil || format == .table ? [] : ["from", "to"])
        var rows: [[String: JSONValue]] = counts.entries.map { entry in
            // A range reads as its label; JSON and CSV give its bounds too.
            guard let upper = entry.upperBound, let bucketing = counts.bucketing else {
                return [counts.keyPath: JSONValue.from(entry.value), "count": .int(entry.count)]
            }
            return [counts.keyPath: .string(bucketing.label(from: entry.value, to: upper)), "count": .int(entry.count),
                    "from": JSONValue.from(entry.value), "to": JSONValue.from(upper)]
        }
        if counts.isCut {
            rows.append([counts.keyPath: .string("(other values)"), "count": .int(counts.remainder)])
        }
        try print(rows, columns: columns, noun: "value")
    }

    private func output(_ objects: [ManagedObject], columns: [String]) throws {
        let rows: [[String: JSONValue]] = try objects.map { o in
            var row: [String: JSONValue] = ["@id": .string(o.objectID.uriRepresentation.absoluteString)]
            for key in columns { row[key] = JSONValue.from(try o.value(forKeyPath: key)) }
            return row
        }
        try print(rows, columns: ["@id"] + columns, tableColumns: columns)
    }

    private func print(_ rows: [[String: JSONValue]], columns header: [String], tableColumns: [String]? = nil,
                       noun: String = "object") throws {
        switch format {
        case .json:
            try StandardOutput.line(try JSONValue.text(.array(rows.map(JSONValue.object))))
        case .csv:
            var output = StandardOutput()
            try output.line(CSV.line(header))
            for row in rows { try output.line(CSV.line(header.map { row[$0] ?? .null })) }
            try output.flush()
        case .table:
            var output = StandardOutput()
            for line in TextTable.lines(header: tableColumns ?? header, rows: rows, counting: noun) { try output.line(line) }
            try output.flush()
        }
    }
}
