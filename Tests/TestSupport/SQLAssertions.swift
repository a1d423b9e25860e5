import Foundation
import Testing
import SQLSyntax

/// Asserts a rendered statement's exact text and its bound values, shown as a test reads
/// them (numbers plain, text quoted).
public func assertSQL(_ rendered: RenderedSQL, _ sql: String, _ arguments: [String] = [],
                      sourceLocation: SourceLocation = #_sourceLocation) {
    assertSQL((rendered.sql, rendered.arguments.map(\.description)), sql, arguments, sourceLocation: sourceLocation)
}

/// Asserts a statement's exact text and its bound values as descriptions.
public func assertSQL(_ rendered: (sql: String, arguments: [String]), _ sql: String, _ arguments: [String] = [],
                      sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(rendered.sql == sql, sourceLocation: sourceLocation)
    #expect(rendered.arguments == arguments, sourceLocation: sourceLocation)
}
