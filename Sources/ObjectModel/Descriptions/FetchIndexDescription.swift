import Foundation

/// An index the store keeps so that fetches on some properties need not read every row: a
/// fetch index of Xcode's model editor (an entity's Fetch Indexes), by name, with its
/// elements in order. A SQLite store creates it as Core Data does, named `Z_<Entity>_<name>`.
///
/// ```swift
/// FetchIndexDescription(name: "byMakerAndNumberPlate", elements: [.init(property: "maker"), .init(property: "numberPlate")])
/// // CREATE INDEX Z_Car_byMakerAndNumberPlate ON ZCAR (ZMAKER COLLATE BINARY ASC, ZNUMBERPLATE COLLATE BINARY ASC)
/// ```
public struct FetchIndexDescription: Sendable, Hashable {
    /// The index's name, unique within its entity.
    public var name: String
    /// The indexed properties (or expressions), the first deciding the order.
    public var elements: [Element]
    /// Model-file attributes of the index kept as read, so that writing the model back keeps them.
    public var xcodeAttributes: [String: String]

    /// One part of a fetch index: a property (or an expression) and how it is indexed.
    public struct Element: Sendable, Hashable {
        /// How an element is indexed.
        public enum Kind: String, Sendable, Hashable {
            /// An ordinary (B-tree) index: equality, ranges and sorting.
            case binary = "Binary"
            /// An R-tree, for ranges over two numbers (a location's bounds).
            case rTree = "RTree"
        }

        /// The indexed property's name; nil for an expression element.
        public var property: String?
        /// The indexed expression's text, for an expression element (Xcode's `expression`).
        public var expression: String?
        /// Binary or R-tree.
        public var kind: Kind
        /// Whether the index orders the values up (the default) or down.
        public var ascending: Bool
        /// Model-file attributes of the element kept as read (an expression's type, for one).
        public var xcodeAttributes: [String: String]

        /// An element indexing a property, a binary index ascending unless told.
        public init(property: String, kind: Kind = .binary, ascending: Bool = true, xcodeAttributes: [String: String] = [:]) {
            self.property = property
            self.expression = nil
            self.kind = kind
            self.ascending = ascending
            self.xcodeAttributes = xcodeAttributes
        }

        /// An element indexing an expression's value.
        public init(expression: String, kind: Kind = .binary, ascending: Bool = true, xcodeAttributes: [String: String] = [:]) {
            self.property = nil
            self.expression = expression
            self.kind = kind
            self.ascending = ascending
            self.xcodeAttributes = xcodeAttributes
        }
    }

    /// A fetch index of this name over these elements.
    public init(name: String, elements: [Element], xcodeAttributes: [String: String] = [:]) {
        self.name = name
        self.elements = elements
        self.xcodeAttributes = xcodeAttributes
    }

    /// The indexed properties' names when every element is a binary index of a property (an
    /// index the store can create as a plain SQL index); nil otherwise.
    public var binaryPropertyNames: [String]? {
        let names = elements.compactMap { $0.kind == .binary ? $0.property : nil }
        return names.count == elements.count && !names.isEmpty ? names : nil
    }
}
