import Foundation
import Predicates

/// Reads an `NSExpression` or `NSPredicate` archived on its own (`NSKeyedArchiver` into a
/// binary property list), as Xcode keeps a mapping's value expressions: the archive readers
/// of compiled models, for the other readers of Apple's files in the package.
package enum ArchivedExpressions {
    /// Why an archive could not be read.
    package struct Problem: Error {
        package var message: String
    }

    /// The keyed archive a binary property list holds.
    package static func archive(in data: Data) throws -> KeyedArchive {
        guard BinaryPropertyList.looksLikeOne(data) else {
            throw Problem(message: "not a binary property list (it does not start with bplist00)")
        }
        do {
            return try KeyedArchive(BinaryPropertyList.read(data))
        } catch let problem as BinaryPropertyList.Problem {
            throw Problem(message: problem.description)
        } catch let problem as KeyedArchive.Problem {
            throw Problem(message: problem.message)
        }
    }

    /// The expression archived as the root object of `data`.
    package static func expression(in data: Data) throws -> ObjectExpression {
        let archive = try archive(in: data)
        return try expression(.uid(archive.root), in: archive)
    }

    /// The expression a field of an archive refers to.
    package static func expression(_ value: PropertyListValue?, in archive: KeyedArchive) throws -> ObjectExpression {
        do {
            return try ArchivedPredicate(archive: archive).expression(value)
        } catch let problem as KeyedArchive.Problem {
            throw Problem(message: problem.message)
        }
    }
}
