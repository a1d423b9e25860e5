import CoreDataMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Expands a macro in `source` and compares with `expanded` and the diagnostics, failing the
/// current test on a difference.
private func expect(_ source: String, expandsTo expanded: String, diagnostics: [DiagnosticSpec] = [],
                    sourceLocation: SourceLocation = #_sourceLocation) {
    assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics,
                         macroSpecs: ["Managed": MacroSpec(type: ManagedMacro.self),
                                      "ManagedAccessor": MacroSpec(type: ManagedAccessorMacro.self)],
                         failureHandler: { Issue.record(Comment(rawValue: $0.message), sourceLocation: sourceLocation) })
}

@Suite("@Managed and @ManagedAccessor, the macros that stand for @NSManaged")
struct ManagedMacroTests {
    @Test("a property gets accessors that read and write the object's value by the property's name")
    func property() {
        expect("""
            extension Item {
                @Managed public var title: String?
                @Managed var `default`: Int64
            }
            """, expandsTo: """
            extension Item {
                public var title: String? {
                    get {
                        managedValue(forKey: "title")
                    }
                    set {
                        setManagedValue(newValue, forKey: "title")
                    }
                }
                var `default`: Int64 {
                    get {
                        managedValue(forKey: "default")
                    }
                    set {
                        setManagedValue(newValue, forKey: "default")
                    }
                }
            }
            """)
    }

    @Test("Xcode's to-many accessors get bodies that change the relationship their name ends with")
    func accessors() {
        expect("""
            @ManagedAccessor public func addToTags(_ value: Tag)
            @ManagedAccessor public func removeFromTags(_ values: NSSet)
            @ManagedAccessor public func insertIntoItems(_ value: Item, at idx: Int)
            @ManagedAccessor public func removeFromItems(at idx: Int)
            @ManagedAccessor public func replaceItems(at indexes: NSIndexSet, with values: [Item])
            """, expandsTo: """
            public func addToTags(_ value: Tag) {
                addToManagedRelationship("tags", value)
            }
            public func removeFromTags(_ values: NSSet) {
                removeFromManagedRelationship("tags", values)
            }
            public func insertIntoItems(_ value: Item, at idx: Int) {
                insertIntoManagedRelationship("items", value, at: idx)
            }
            public func removeFromItems(at idx: Int) {
                removeFromManagedRelationship("items", at: idx)
            }
            public func replaceItems(at indexes: NSIndexSet, with values: [Item]) {
                replaceInManagedRelationship("items", at: indexes, with: values)
            }
            """)
    }

    @Test("misuses are refused at the attribute, saying what @NSManaged allows")
    func misuses() {
        expect("""
            @Managed let title: String?
            """, expandsTo: """
            let title: String?
            """, diagnostics: [DiagnosticSpec(message: "@Managed goes on one 'var' with a name, as @NSManaged does", line: 1, column: 1)])
        expect("""
            @Managed var count: Int = 0
            """, expandsTo: """
            var count: Int = 0
            """, diagnostics: [DiagnosticSpec(message: "@Managed var count has no value or accessors of its own: the managed object keeps it",
                                              line: 1, column: 1)])
        expect("""
            @ManagedAccessor func tidyTags()
            """, expandsTo: """
            func tidyTags()
            """, diagnostics: [DiagnosticSpec(message: "@ManagedAccessor func tidyTags is none of the to-many accessors Xcode generates "
                                              + "(addToX(_:), removeFromX(_:), insertIntoX(_:at:), removeFromX(at:), replaceX(at:with:))",
                                              line: 1, column: 1)])
    }
}
