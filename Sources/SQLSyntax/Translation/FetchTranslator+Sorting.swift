import Foundation
import ObjectGraph
import ObjectModel
import Predicates

extension FetchTranslator {
    /// `ORDER BY` terms for sort descriptors, with collations that order as memory does.
    package func ordering(_ descriptors: [ObjectSortDescriptor]) throws -> [SQLOrdering] {
        try descriptors.map { d in
            let column: SQLExpression
            var type: AttributeType?
            switch try operand(d.key, from: root) {
            case .attribute(let c, let t), .expression(let c, let t): (column, type) = (c, t)
            case .object(let c, _): column = c
            case .toMany(let r, _, _, _):
                throw flavor.unsupported("sorting by the to-many relationship '\(r.name)'")
            }
            if d.comparison != .compare, type == .string || type == nil {
                return SQLOrdering(try flavor.collated(column, d.comparison), ascending: d.ascending)
            }
            return SQLOrdering(column, ascending: d.ascending)
        }
    }
}
