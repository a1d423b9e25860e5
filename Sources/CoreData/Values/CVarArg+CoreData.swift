import Foundation
import ObjectGraph

// Core Data code hands predicate arguments over as `CVarArg`s: `uuid as CVarArg`,
// `date as NSDate`. On Apple's systems these values bridge to
// Foundation's classes, which are `CVarArg`s; on Linux they are not, and such a line would
// not compile. `NSPredicate(format:)` here takes any value (collections too), and these
// conformances let the explicit casts compile as well.
//
// Their encoding is an object for `%@`, as on Apple's systems, so that
// `String(format: "%@", value)` prints the value: Foundation's own object where there is one,
// else the value's description. Such an object is kept for the life of the program (there
// is no autorelease pool to hand it to), so these encodings are for arguments, not loops.

/// `%@`'s encoding of a Foundation object, kept alive as a bridged object would be.
private func encoding(_ object: AnyObject) -> [Int] {
    [Int(bitPattern: Unmanaged.passRetained(object).toOpaque())]
}

extension NSObject: @retroactive CVarArg {
    public var _cVarArgEncoding: [Int] { [Int(bitPattern: Unmanaged.passUnretained(self).toOpaque())] }
}

extension Date: @retroactive CVarArg {
    public var _cVarArgEncoding: [Int] { encoding(NSDate(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate)) }
}

extension UUID: @retroactive CVarArg {
    public var _cVarArgEncoding: [Int] { encoding(NSUUID(uuidString: uuidString)!) }
}

extension URL: @retroactive CVarArg {
    public var _cVarArgEncoding: [Int] { encoding(NSURL(string: absoluteString) ?? NSURL(fileURLWithPath: path)) }
}

extension Data: @retroactive CVarArg {
    public var _cVarArgEncoding: [Int] { encoding(NSData(data: self)) }
}

extension Decimal: @retroactive CVarArg {
    public var _cVarArgEncoding: [Int] { encoding(NSDecimalNumber(decimal: self)) }
}

extension ManagedObject: CVarArg {
    public var _cVarArgEncoding: [Int] { encoding(NSString(string: description)) }
}

extension ManagedObjectID: CVarArg {
    public var _cVarArgEncoding: [Int] { encoding(NSString(string: description)) }
}
