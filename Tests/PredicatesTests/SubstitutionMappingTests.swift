import Foundation
import Testing
import Predicates

/// `mappingConstants`: every constant, inside subqueries and collections' holders too,
/// passes through the transform; variables stay.
@Suite("Mapping a predicate's constants")
struct SubstitutionMappingTests {
    @Test("constants in comparisons, functions and subqueries are mapped; variables are left for later")
    func mapsConstants() throws {
        let predicate = try ObjectPredicate(format: "name == 'a' AND SUBQUERY(items, $i, $i.weight > 3).@count == 1 AND due < $LIMIT")
        let mapped = predicate.mappingConstants { value in
            if case .string(let s) = value { return .string(s.uppercased()) }
            if case .int(let n) = value { return .int(n * 10) }
            return value
        }
        #expect(mapped.predicateFormat == #"name == "A" AND SUBQUERY(items, $i, $i.weight > 30).@count == 10 AND due < $LIMIT"#)
        // Nothing to map: the same predicate.
        #expect(predicate.mappingConstants { $0 } == predicate)
    }
}
