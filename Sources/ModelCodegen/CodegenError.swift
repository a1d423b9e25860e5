import Foundation
import ObjectModel
import Predicates

/// A model whose classes cannot be generated, naming the entity (and property) at fault.
public struct CodegenError: Error, Equatable, CustomStringConvertible {
    public var entity: String
    public var property: String?
    public var reason: String

    public init(entity: String, property: String? = nil, reason: String) {
        self.entity = entity
        self.property = property
        self.reason = reason
    }

    public var description: String {
        "entity '\(entity)'" + (property.map { ", property '\($0)'" } ?? "") + ": " + reason
    }
}
