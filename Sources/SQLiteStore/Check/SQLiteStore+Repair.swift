import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import SQLSyntax

/// What `termdata check --repair` does about one finding: the action in words, and the
/// statements that do it.
public struct StoreRepair: Sendable {
    /// The finding the repair answers.
    public var finding: StoreFinding
    /// What the repair does, in words: "clear ToDo.category on 3 objects (…)".
    public var action: String
    let statements: [String]
}

extension SQLiteStore {
    /// The repairs that are safe for these findings, and the findings left alone. Safe: a
    /// dangling key of an optional to-one is cleared (the object it named is gone either way),
    /// a join row to a missing object is removed, a key counter is moved up to its table's
    /// largest key. Not safe, so refused: what needs a choice — a required value, which of
    /// two duplicates stays, which side of a one-to-one is right, what a row of no entity is.
    public func repairs(for findings: [StoreFinding]) -> (repairs: [StoreRepair], refused: [StoreFinding]) {
        var repairs: [StoreRepair] = [], refused: [StoreFinding] = []
        let q = { (name: String) in "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        for finding in findings {
            guard let mapping = schema.mapping(for: finding.entity) else { refused.append(finding); continue }
            let table = q(mapping.table.name)
            switch finding.kind {
            case .danglingReference:
                guard let name = finding.key, let relationship = mapping.entity.relationship(named: name), relationship.isOptional,
                      let key = mapping.foreignKey(for: name), let destination = schema.mapping(for: key.destinationEntityName) else {
                    refused.append(finding)
                    continue
                }
                let kinds = mapping.entity.kindNames.compactMap { schema.mapping(for: $0)?.number }.map(String.init).joined(separator: ", ")
                let clear = ([key.column] + (key.entityColumn.map { [$0] } ?? [])).map { "\(q($0)) = NULL" }.joined(separator: ", ")
                repairs.append(StoreRepair(finding: finding, action: "clear \(finding.entity).\(name) on \(finding.count) object\(finding.count == 1 ? "" : "s") (it names a \(key.destinationEntityName) that is not in the store)",
                                           statements: ["UPDATE \(table) SET \(clear), Z_OPT = Z_OPT + 1 WHERE Z_ENT IN (\(kinds)) AND \(q(key.column)) IS NOT NULL "
                                                        + "AND NOT EXISTS (SELECT 1 FROM \(q(destination.table.name)) d WHERE d.Z_PK = \(table).\(q(key.column)))"]))
            case .orphanJoinRow:
                guard let name = finding.key, case .joinTable(let join, let own, let other)? = mapping.toManyStorage(for: name),
                      let relationship = mapping.entity.relationship(named: name),
                      let destination = schema.mapping(for: relationship.destinationEntityName) else {
                    refused.append(finding)
                    continue
                }
                repairs.append(StoreRepair(finding: finding, action: "remove \(finding.count) row\(finding.count == 1 ? "" : "s") of \(join) that join \(finding.entity).\(name) to missing objects",
                                           statements: ["DELETE FROM \(q(join)) WHERE NOT EXISTS (SELECT 1 FROM \(table) s WHERE s.Z_PK = \(q(join)).\(q(own))) "
                                                        + "OR NOT EXISTS (SELECT 1 FROM \(q(destination.table.name)) d WHERE d.Z_PK = \(q(join)).\(q(other)))"]))
            case .keyCounterBehind:
                let root = mapping.table.rootEntityName
                repairs.append(StoreRepair(finding: finding, action: "move Z_PRIMARYKEY's counter for \(root) up to \(mapping.table.name)'s largest key",
                                           statements: ["UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT MAX(Z_PK) FROM \(table)) WHERE Z_NAME = '\(root.replacingOccurrences(of: "'", with: "''"))'"]))
            case .metadataMismatch:
                // The entity's row made as the model and the tables have it; a number another name holds is left.
                let parent = mapping.entity.parentName.flatMap { schema.mapping(for: $0)?.number } ?? 0
                let name = "'" + finding.entity.replacingOccurrences(of: "'", with: "''") + "'"
                repairs.append(StoreRepair(finding: finding, action: "write Z_PRIMARYKEY's row for \(finding.entity): entity \(mapping.number), parent \(parent)",
                                           statements: ["UPDATE Z_PRIMARYKEY SET Z_SUPER = \(parent) WHERE Z_ENT = \(mapping.number) AND Z_NAME = \(name)",
                                                        "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) SELECT \(mapping.number), \(name), \(parent), "
                                                        + "(SELECT IFNULL(MAX(Z_PK), 0) FROM \(table)) WHERE NOT EXISTS (SELECT 1 FROM Z_PRIMARYKEY WHERE Z_ENT = \(mapping.number))"]))
            case .oneSidedReference, .missingRequiredValue, .duplicateUnique, .unknownEntityNumber, .countOutOfRange:
                refused.append(finding)
            }
        }
        return (repairs, refused)
    }

    /// Makes the repairs in one transaction: all of them, or (on any error) none.
    public func repair(_ repairs: [StoreRepair]) throws {
        guard !isReadOnly else { throw ObjectGraphError.readOnlyStore(url?.path ?? identifier) }
        guard !repairs.isEmpty else { return }
        do {
            try database.inTransaction(.immediate) { db in
                if let url { try StoreFiles.checkStillOpened(openedFile, at: url) }
                for statement in repairs.flatMap(\.statements) { try db.execute(sql: statement) }
                return .commit
            }
        } catch let error as ObjectGraphError {
            throw error
        } catch {
            throw ObjectGraphError.storeFormat(file: url?.path ?? ":memory:", reason: "repair failed, nothing changed: \(Self.describe(error))")
        }
    }
}
