import Foundation

/// A function applied to values it cannot take.
struct FunctionFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
