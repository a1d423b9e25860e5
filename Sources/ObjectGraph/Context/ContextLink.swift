/// The way objects, observations and batches reach their context: the context owns one
/// link, points it at itself, and clears it as it goes away; every holder keeps the link
/// alive and reads `nil` once the context is gone.
///
/// A weak reference would give the same answers, but forming one moves the context's
/// reference counts into a side table, after which every retain and release of the
/// context takes a slower path, and a fault fetch forms one per object. The link keeps
/// the context's counts inline; the unchecked pointer is safe because the context clears
/// it before anything else in its `deinit`, and a context and its objects belong to one
/// thread (an object is also released there: its `deinit` leaves the context's registry).
final class ContextLink {
    var context: ManagedObjectContext? {
        get { reference?.takeUnretainedValue() }
        set { reference = newValue.map(Unmanaged.passUnretained) }
    }
    private var reference: Unmanaged<ManagedObjectContext>?

    /// Takes an object that is going away out of the context's registry, retaining neither
    /// (every fetched object passes here once).
    func unregister(_ object: ManagedObject) {
        reference?._withUnsafeGuaranteedRef { $0.unregister(object) }
    }
}
