import Foundation

// Foundation's collections sort by Foundation's sort descriptors; a file that imports CoreData
// names Core Data's `NSSortDescriptor`, so these take it, and `recipe.ingredients
// .sortedArray(using: [byName])` reads as it does on Apple's systems.

extension NSSet {
    /// The set's objects in the order the descriptors give, the first deciding first.
    public func sortedArray(using sortDescriptors: [NSSortDescriptor]) -> [Any] {
        NSSortDescriptor.sorted(allObjects, by: sortDescriptors)
    }
}

extension NSOrderedSet {
    /// The ordered set's objects in the order the descriptors give, the first deciding first;
    /// objects they find equal keep their order.
    public func sortedArray(using sortDescriptors: [NSSortDescriptor]) -> [Any] {
        NSSortDescriptor.sorted(array, by: sortDescriptors)
    }
}

extension NSArray {
    /// The array's objects in the order the descriptors give, the first deciding first; objects
    /// they find equal keep their order.
    public func sortedArray(using sortDescriptors: [NSSortDescriptor]) -> [Any] {
        NSSortDescriptor.sorted(Array(self), by: sortDescriptors)
    }
}

extension NSSortDescriptor {
    /// `objects` in the order `descriptors` give; objects they find equal keep their order.
    static func sorted(_ objects: [Any], by descriptors: [NSSortDescriptor]) -> [Any] {
        objects.enumerated().sorted { left, right in
            for descriptor in descriptors {
                switch descriptor.compare(left.element, to: right.element) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return left.offset < right.offset
        }.map(\.element)
    }
}
