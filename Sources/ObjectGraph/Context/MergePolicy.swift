/// How a save resolves a conflict with changes another context or process saved since
/// the objects were fetched.
public enum MergePolicy: String, Sendable, CaseIterable {
    /// The save fails and reports each conflict (the default).
    case error
    /// Property by property, the store's newer values win over the context's.
    case mergeByPropertyStoreTrump
    /// Property by property, the context's values win over the store's.
    case mergeByPropertyObjectTrump
    /// The context's objects overwrite the store's rows entirely.
    case overwrite
    /// The context's changes to conflicting objects are discarded.
    case rollback
}
