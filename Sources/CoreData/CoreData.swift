// `import CoreData` gives Foundation too, as Apple's framework does. It must: Foundation on
// Linux declares `NSPredicate`, `NSExpression` and `NSSortDescriptor` as well, and Swift lets
// this module's classes stand for those names only in a file that reaches Foundation through
// this module alone. A file that also says `import Foundation` finds every such name
// ambiguous where it names a type, so a port drops that line (docs/Porting.md).
@_exported import Foundation
