import Foundation
import ObjectModel
import Predicates

/// A model whose classes cannot be generated, naming the entity (and property) at fault.
public struct CodegenError: Error, Equatable, CustomStringConvertible {
    /// The name of the entity at fault.
    public var entity: String
    /// The property at fault; nil when the fault is the entity's own, such as its class name.
    public var property: String?
    /// What is wrong, in words: "its class name 'x' is not a Swift type name".
    public var reason: String

    /// An error naming the entity, the property when one is at fault, and what is wrong.
    public init(entity: String, property: String? = nil, reason: String) {
        self.entity = entity
        self.property = property
        self.reason = reason
    }

    /// The error as one line: the entity, the property when there is one, and the reason.
    public var description: String {
        "entity '\(entity)'" + (property.map { ", property '\($0)'" } ?? "") + ": " + reason
    }
}
