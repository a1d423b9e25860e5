import Foundation
import Testing
import Predicates
import TestSupport

@Suite("Sort descriptors")
struct SortDescriptorTests {
    static let people: [ObjectValue] = [
        ["name": "bob", "age": 30, "file": "file10"],
        ["name": "Ann", "age": nil, "file": "file2"],
        ["name": "Cy", "age": 25, "file": "File1"],
        ["name": "ann", "age": 30, "file": "file1"],
    ]

    private func names(_ values: [ObjectValue]) -> [String] {
        values.compactMap { (try? $0.value(forKey: "name"))?.stringValue }
    }

    @Test("nil sorts first ascending and last descending")
    func nilOrdering() throws {
        let up = try [ObjectSortDescriptor(key: "age")].sorted(Self.people)
        #expect(names(up) == ["Ann", "Cy", "bob", "ann"])
        let down = try [ObjectSortDescriptor(key: "age", ascending: false)].sorted(Self.people)
        #expect(names(down) == ["bob", "ann", "Cy", "Ann"])
    }

    @Test("equal keys keep their original order")
    func stable() throws {
        let byAge = try [ObjectSortDescriptor(key: "age")].sorted(Self.people)
        #expect(names(byAge).suffix(2) == ["bob", "ann"])
    }

    @Test("later descriptors break ties")
    func tieBreak() throws {
        let sorted = try [ObjectSortDescriptor(key: "age"), ObjectSortDescriptor(key: "name")].sorted(Self.people)
        #expect(names(sorted) == ["Ann", "Cy", "ann", "bob"])
    }

    @Test("compare: orders by Unicode, capitals first")
    func plainCompare() throws {
        let sorted = try [ObjectSortDescriptor(key: "name")].sorted(Self.people)
        #expect(names(sorted) == ["Ann", "Cy", "ann", "bob"])
    }

    @Test("caseInsensitiveCompare: ignores case and keeps ties stable")
    func caseInsensitive() throws {
        let sorted = try [ObjectSortDescriptor(key: "name", comparison: .caseInsensitiveCompare)].sorted(Self.people)
        #expect(names(sorted) == ["Ann", "ann", "bob", "Cy"])
    }

    @Test("localizedStandardCompare: orders numbers inside names by value")
    func standardCompare() throws {
        let d = ObjectSortDescriptor(key: "file", comparison: .localizedStandardCompare)
        #expect(d.compareValues("file2", "file10") == .orderedAscending)
        #expect(ObjectSortDescriptor(key: "file").compareValues("file2", "file10") == .orderedDescending)
    }

    @Test("localized comparisons order strings", arguments: [SortComparison.localizedCompare, .localizedCaseInsensitiveCompare])
    func localized(_ comparison: SortComparison) {
        let d = ObjectSortDescriptor(key: "x", comparison: comparison)
        #expect(d.compareValues("apple", "banana") == .orderedAscending)
        #expect(d.compareValues("banana", "apple") == .orderedDescending)
    }

    @Test("selectors name the comparisons stores accept")
    func selectors() {
        #expect(SortComparison.allCases.map(\.rawValue) == [
            "compare:", "caseInsensitiveCompare:", "localizedCompare:", "localizedCaseInsensitiveCompare:",
            "localizedStandardCompare:",
        ])
        #expect(ObjectSortDescriptor(key: "a", selector: "caseInsensitiveCompare:")?.comparison == .caseInsensitiveCompare)
        #expect(ObjectSortDescriptor(key: "a", selector: "compareWithBlock:") == nil)
        #expect(ObjectSortDescriptor(key: "a").reversed.ascending == false)
        #expect(ObjectSortDescriptor(key: "a", ascending: false).description == "(a, descending, compare:)")
    }

    @Test("compare reads the key path of each object")
    func compareObjects() throws {
        let d = ObjectSortDescriptor(key: "address.zip")
        #expect(try d.compare(["address": ["zip": "1000"]], ["address": ["zip": "2000"]]) == .orderedAscending)
        #expect(try [ObjectSortDescriptor(key: "a"), ObjectSortDescriptor(key: "b", ascending: false)]
            .compare(["a": 1, "b": 1], ["a": 1, "b": 2]) == .orderedDescending)
    }

    @Test("values of unrelated kinds sort by kind, so any mix has a total order")
    func mixedKinds() throws {
        let values: [ObjectValue] = [["v": "x"], ["v": 2], ["v": nil], ["v": .date(Samples.epoch)], ["v": 1]]
        let sorted = try [ObjectSortDescriptor(key: "v")].sorted(values).map { try $0.value(forKey: "v") }
        #expect(sorted == [nil, 1, 2, "x", .date(Samples.epoch)])
    }

    @Test("objects and key-value sources sort by their keys")
    func keyValueSources() throws {
        let people = [Person(id: 1, ["age": 40]), Person(id: 2, ["age": 20])]
        let sorted = try [ObjectSortDescriptor(key: "age")].sorted(people)
        #expect(sorted.map(\.id) == [2, 1])
    }

    @Test("an unknown key is an evaluation error")
    func unknownKey() {
        #expect(throws: PredicateEvaluationError.self) {
            try [ObjectSortDescriptor(key: "height")].sorted([Person(id: 1, [:])])
        }
    }
}

extension SortDescriptorTests {
    @Test("the case-insensitive localized order agrees with Foundation's collator on names of letters, digits and spaces, and on any other text")
    func localizedOrderAgrees() {
        let pieces = ["Item", "item", "ITEM", " ", "9", "10", "a", "B", "z", "Zoë", "é", "-", "_", "ch", "aa", "ß", "İ", "", "x y", "xy"]
        var generator = SeededGenerator(seed: 0xC011A7E)   // the same texts every run
        var texts: [String] = pieces
        for _ in 0..<2_000 {
            texts.append((0..<Int.random(in: 1...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for _ in 0..<20_000 {
            let a = texts.randomElement(using: &generator)!, b = texts.randomElement(using: &generator)!
            let order = SortComparison.localizedCaseInsensitiveCompare.order(.string(a), .string(b))
            #expect(order == a.localizedCaseInsensitiveCompare(b), "\(a.debugDescription) vs \(b.debugDescription)")
            if order != a.localizedCaseInsensitiveCompare(b) { return }
        }
    }
}
