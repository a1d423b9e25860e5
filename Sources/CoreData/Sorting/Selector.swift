/// A method's name, as Core Data takes it for a sort descriptor's comparison
/// (`"localizedStandardCompare:"`). Foundation on Linux has no `Selector`, and `#selector`
/// needs the Objective-C runtime: a port writes `Selector("localizedStandardCompare:")`
/// where Apple's code has `#selector(NSString.localizedStandardCompare(_:))`.
public struct Selector: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The selector's name, colons included.
    public let name: String

    /// The selector with a name, colons included: `Selector("localizedStandardCompare:")`.
    public init(_ name: String) { self.name = name }

    /// The selector named by a string literal: `"localizedStandardCompare:"`.
    public init(stringLiteral name: String) { self.name = name }

    /// The selector's name.
    public var description: String { name }
}

/// The name of a selector.
public func NSStringFromSelector(_ selector: Selector) -> String { selector.name }

/// The selector with a name.
public func NSSelectorFromString(_ name: String) -> Selector { Selector(name) }
