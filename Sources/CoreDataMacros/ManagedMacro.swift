import SwiftCompilerPlugin
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Managed`, Core Data's `@NSManaged` on a property, for Linux: accessors that read and
/// write the managed object's value for the property's name.
public struct ManagedMacro: AccessorMacro {
    public static func expansion(of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
                                 in context: some MacroExpansionContext) throws -> [AccessorDeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self) else { return [] }
        guard variable.bindingSpecifier.tokenKind == .keyword(.var), variable.bindings.count == 1,
              let binding = variable.bindings.first,
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier else {
            throw ManagedError("@Managed goes on one 'var' with a name, as @NSManaged does")
        }
        guard binding.typeAnnotation != nil else {
            throw ManagedError("@Managed var \(name.text) needs its type written, as @NSManaged does")
        }
        guard binding.initializer == nil, binding.accessorBlock == nil else {
            throw ManagedError("@Managed var \(name.text) has no value or accessors of its own: the managed object keeps it")
        }
        let key = name.text.filter { $0 != "`" }
        return [
            "get { managedValue(forKey: \(literal: key)) }",
            "set { setManagedValue(newValue, forKey: \(literal: key)) }",
        ]
    }

}

/// `@ManagedAccessor`, Core Data's `@NSManaged` on one of the to-many accessors Xcode
/// generates (`addToTags(_:)`, `removeFromTags(_:)`, `insertIntoItems(_:at:)`,
/// `removeFromItems(at:)`, `replaceItems(at:with:)`), for Linux: the body that changes the
/// relationship. (A macro cannot be both: Swift refuses a macro on a declaration one of its
/// roles does not fit.)
public struct ManagedAccessorMacro: BodyMacro {
    public static func expansion(of node: AttributeSyntax, providingBodyFor declaration: some DeclSyntaxProtocol & WithOptionalCodeBlockSyntax,
                                 in context: some MacroExpansionContext) throws -> [CodeBlockItemSyntax] {
        guard let function = declaration.as(FunctionDeclSyntax.self) else {
            throw ManagedError("@ManagedAccessor goes on a to-many accessor Xcode generates; @Managed on a property")
        }
        guard function.body == nil else {
            throw ManagedError("@ManagedAccessor func \(function.name.text) has no body of its own: the managed object provides it")
        }
        let name = function.name.text
        let parameters = Array(function.signature.parameterClause.parameters)
        func parameter(_ i: Int) -> String {
            let p = parameters[i]
            return (p.secondName ?? p.firstName).text
        }
        let labels = parameters.map(\.firstName.text)
        for (prefix, call) in [("addTo", "addToManagedRelationship"), ("removeFrom", "removeFromManagedRelationship"),
                               ("insertInto", "insertIntoManagedRelationship"), ("replace", "replaceInManagedRelationship")] {
            guard name.hasPrefix(prefix), name.count > prefix.count else { continue }
            let key = relationshipKey(String(name.dropFirst(prefix.count)))
            switch (prefix, labels) {
            case ("addTo", ["_"]), ("removeFrom", ["_"]):
                return ["\(raw: call)(\(literal: key), \(raw: parameter(0)))"]
            case ("removeFrom", ["at"]):
                return ["removeFromManagedRelationship(\(literal: key), at: \(raw: parameter(0)))"]
            case ("insertInto", ["_", "at"]):
                return ["insertIntoManagedRelationship(\(literal: key), \(raw: parameter(0)), at: \(raw: parameter(1)))"]
            case ("replace", ["at", "with"]):
                return ["replaceInManagedRelationship(\(literal: key), at: \(raw: parameter(0)), with: \(raw: parameter(1)))"]
            default:
                continue
            }
        }
        throw ManagedError("@ManagedAccessor func \(name) is none of the to-many accessors Xcode generates "
                           + "(addToX(_:), removeFromX(_:), insertIntoX(_:at:), removeFromX(at:), replaceX(at:with:))")
    }

    /// The relationship an accessor's name ends with: `Tags` → `tags`, as Xcode capitalises it.
    static func relationshipKey(_ suffix: String) -> String {
        suffix.prefix(1).lowercased() + suffix.dropFirst()
    }
}

/// A misuse of `@Managed`, reported at the attribute.
struct ManagedError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@main
struct CoreDataMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ManagedMacro.self, ManagedAccessorMacro.self]
}
