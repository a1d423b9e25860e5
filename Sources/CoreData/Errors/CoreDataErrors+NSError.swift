import Foundation
import Migration
import ObjectGraph
import ObjectModel
import SQLiteStore

// The engine's errors as Core Data's: each bridges to an `NSError` in Cocoa's domain with Core
// Data's code and `userInfo` keys, its description the engine's (which names the entity, key,
// object and file). The conformances are made here, where Apple's names are, so that the
// engine's modules keep none of them.

extension ValidationError: CustomNSError {
    public static var errorDomain: String { NSCocoaErrorDomain }

    /// The failure's code, or `NSValidationMultipleErrorsError` for several.
    public var errorCode: Int {
        failures.count == 1 ? failures[0].code.rawValue : NSValidationMultipleErrorsError
    }

    /// One failure's object, key and value; for several, `NSDetailedErrorsKey` holds an
    /// error for each.
    public var errorUserInfo: [String: Any] {
        guard failures.count == 1 else {
            return [
                NSLocalizedDescriptionKey: description,
                NSDetailedErrorsKey: failures.map { ValidationError(failures: [$0]) as NSError },
            ]
        }
        let failure = failures[0]
        var info: [String: Any] = [NSLocalizedDescriptionKey: description, NSValidationObjectErrorKey: failure.object]
        if let key = failure.key { info[NSValidationKeyErrorKey] = key }
        if let value = CocoaValue.cocoa(failure.value) { info[NSValidationValueErrorKey] = value }
        return info
    }
}

extension MergeConflictError: CustomNSError {
    public static var errorDomain: String { NSCocoaErrorDomain }
    public var errorCode: Int { NSManagedObjectMergeError }
    public var errorUserInfo: [String: Any] {
        [NSLocalizedDescriptionKey: description, NSAffectedObjectsErrorKey: conflicts.map(\.objectID)]
    }
}

extension ObjectGraphError: CustomNSError {
    public static var errorDomain: String { NSCocoaErrorDomain }

    public var errorCode: Int {
        switch self {
        case .objectNotFound: NSManagedObjectReferentialIntegrityError
        case .crossContextRelationship: NSManagedObjectExternalRelationshipError
        case .typeMismatch: NSManagedObjectValidationError
        case .otherModel, .incompatibleStore: NSPersistentStoreIncompatibleVersionHashError
        case .storeTypeNotRegistered, .noMetadataReader, .noFileFormat: NSPersistentStoreInvalidTypeError
        case .storeFormat, .storeDamaged: CocoaError.fileReadCorruptFile.rawValue
        case .storeFileMissing: CocoaError.fileReadNoSuchFile.rawValue
        case .storeNeedsFile, .storeAlreadyAdded, .otherStoreAtPath, .storeFileReplaced: NSPersistentStoreOpenError
        case .readOnlyStore, .primaryKeysExhausted: NSPersistentStoreSaveError
        case .cannotMigrate: NSMigrationError
        case .stopped: CocoaError.userCancelled.rawValue
        // What NSKeyedUnarchiver reports for an archive it cannot read.
        case .transformFailed: CocoaError.coderReadCorrupt.rawValue
        case .unknownEntity, .abstractEntity, .objectNotInContext, .noStoreForEntity, .unknownStore, .classNotRegistered,
             .noFetchRequestTemplate, .noConfiguration, .notStorable, .noQueryPlan:
            NSCoreDataError
        }
    }

    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}

extension SQLiteStoreError: CustomNSError {
    public static var errorDomain: String { NSCocoaErrorDomain }

    public var errorCode: Int {
        switch self {
        case .schemaMismatch: NSPersistentStoreIncompatibleSchemaError
        case .unsupportedInSQL, .unknownKey: NSPersistentStoreUnsupportedRequestTypeError
        case .fetchFailed: NSSQLiteError
        case .unreadableMetadata: CocoaError.fileReadCorruptFile.rawValue
        }
    }

    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}

extension MigrationError: CustomNSError {
    public static var errorDomain: String { NSCocoaErrorDomain }

    public var errorCode: Int {
        switch self {
        case .noMatchingVersion: NSMigrationMissingSourceModelError
        case .noMapping, .noPath: NSMigrationMissingMappingModelError
        case .cannotInfer: NSInferredMappingModelError
        case .unknownPolicy, .policyFailed, .expressionFailed: NSEntityMigrationPolicyError
        default: NSMigrationError
        }
    }

    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}

extension ModelError: CustomNSError {
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// A model file that cannot be read: Foundation's code for a file in the wrong format.
    public var errorCode: Int { CocoaError.fileReadCorruptFile.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}

extension StackError: CustomNSError {
    public static var errorDomain: String { NSCocoaErrorDomain }
    public var errorCode: Int { NSCoreDataError }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}
