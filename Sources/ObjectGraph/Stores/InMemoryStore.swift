import Foundation
import ObjectModel

/// A store in memory only: fast, and gone when the process ends. Tests and scratch work.
///
/// ```swift
/// try coordinator.addStore(type: .inMemory)
/// ```
public final class InMemoryStore: AtomicStore {
    /// An empty store in memory for a model's entities, or a configuration's.
    public init(model: ManagedObjectModel, configurationName: String? = nil) throws {
        try super.init(type: .inMemory, model: model, url: nil, configurationName: configurationName, options: StoreOptions())
    }
}
