import Foundation

// Core Data's error codes, in `NSCocoaErrorDomain`, with Apple's names and values
// (CoreDataErrors.h). A failed save, fetch or store load throws an error that bridges to an
// `NSError` with one of them: `catch let error as NSError where error.code ==
// NSValidationMissingMandatoryPropertyError` reads as it does on Apple's systems.

/// A validation failure with no more particular code.
public let NSManagedObjectValidationError = 1550
/// A uniqueness constraint broken by objects in one save.
public let NSManagedObjectConstraintValidationError = 1551
/// Several validation failures; `NSDetailedErrorsKey` holds one error for each.
public let NSValidationMultipleErrorsError = 1560
/// A required attribute or to-one relationship without a value, or a required to-many
/// relationship without members.
public let NSValidationMissingMandatoryPropertyError = 1570
/// A to-many relationship holding fewer objects than its model's minimum count.
public let NSValidationRelationshipLacksMinimumCountError = 1580
/// A to-many relationship holding more objects than its model's maximum count.
public let NSValidationRelationshipExceedsMaximumCountError = 1590
/// A deleted object whose relationship with the Deny rule still holds objects not deleted too.
public let NSValidationRelationshipDeniedDeleteError = 1600
/// A number larger than its attribute's maximum.
public let NSValidationNumberTooLargeError = 1610
/// A number smaller than its attribute's minimum.
public let NSValidationNumberTooSmallError = 1620
/// A date later than its attribute's maximum.
public let NSValidationDateTooLateError = 1630
/// A date earlier than its attribute's minimum.
public let NSValidationDateTooSoonError = 1640
/// Core Data's code for a date that fails its attribute's rules; no validation here reports it.
public let NSValidationInvalidDateError = 1650
/// A string (or binary data) longer than its attribute's maximum length.
public let NSValidationStringTooLongError = 1660
/// A string (or binary data) shorter than its attribute's minimum length, or empty where a
/// value is required.
public let NSValidationStringTooShortError = 1670
/// A string that does not match its attribute's regular expression.
public let NSValidationStringPatternMatchingError = 1680
/// Core Data's code for a URI that fails its attribute's rules; no validation here reports it.
public let NSValidationInvalidURIError = 1690
/// Core Data's code for a context whose lock could not be taken; no error here carries it.
public let NSManagedObjectContextLockingError = 132_000
/// Core Data's code for a coordinator whose lock could not be taken; no error here carries it.
public let NSPersistentStoreCoordinatorLockingError = 132_010
/// A fault whose object is no longer in the store.
public let NSManagedObjectReferentialIntegrityError = 133_000
/// A relationship given an object of another context: objects of two contexts cannot be related.
public let NSManagedObjectExternalRelationshipError = 133_010
/// A save that found objects changed by another save since they were read.
public let NSManagedObjectMergeError = 133_020
/// Core Data's code for a uniqueness constraint broken against saved objects; here that fails
/// validation with `NSManagedObjectConstraintValidationError`.
public let NSManagedObjectConstraintMergeError = 133_021
/// A store type with no registered factory or metadata reader, or one asked for a file format
/// it does not have.
public let NSPersistentStoreInvalidTypeError = 134_000
/// Core Data's code for a store opened as a type it is not; no error here carries it.
public let NSPersistentStoreTypeMismatchError = 134_010
/// A SQLite store whose tables do not fit the model.
public let NSPersistentStoreIncompatibleSchemaError = 134_020
/// A save that a store refused: the store is read-only, or an entity's primary keys are used up.
public let NSPersistentStoreSaveError = 134_030
/// Core Data's code for a save that some of its stores failed; no error here carries it.
public let NSPersistentStoreIncompleteSaveError = 134_040
/// Core Data's code for conflicts a store found during a save; here a conflict throws
/// `NSManagedObjectMergeError`.
public let NSPersistentStoreSaveConflictsError = 134_050
/// A failure with no more particular code.
public let NSCoreDataError = 134_060
/// Core Data's code for a store operation that failed; no error here carries it.
public let NSPersistentStoreOperationError = 134_070
/// A store that cannot be added or written: no URL for a file store, one already added, or another
/// file now at its path.
public let NSPersistentStoreOpenError = 134_080
/// Core Data's code for a store that could not be reached in time; no error here carries it.
public let NSPersistentStoreTimeoutError = 134_090
/// A request a SQLite store cannot run: a predicate, sort or fetch with no SQL form, or a key the
/// entity does not have.
public let NSPersistentStoreUnsupportedRequestTypeError = 134_091
/// A store made with another model, which the container's model cannot open.
public let NSPersistentStoreIncompatibleVersionHashError = 134_100
/// A migration that failed, for a reason with no more particular code.
public let NSMigrationError = 134_110
/// Core Data's code for a migration that broke a uniqueness constraint; no error here carries it.
public let NSMigrationConstraintViolationError = 134_111
/// Core Data's code for a migration cancelled by hand; no error here carries it.
public let NSMigrationCancelledError = 134_120
/// A store whose version hashes match none of the model's versions: no source to migrate from.
public let NSMigrationMissingSourceModelError = 134_130
/// A migration step with no mapping, or no path from the store's version to the model's.
public let NSMigrationMissingMappingModelError = 134_140
/// Core Data's code for a migration whose source store failed; no error here carries it.
public let NSMigrationManagerSourceStoreError = 134_150
/// Core Data's code for a migration whose destination store failed; no error here carries it.
public let NSMigrationManagerDestinationStoreError = 134_160
/// A migration policy that is not registered or that failed, or a mapping expression that failed.
public let NSEntityMigrationPolicyError = 134_170
/// A fetch that SQLite stopped: a predicate function refused a value, or the file was unreadable.
public let NSSQLiteError = 134_180
/// A model change that an inferred mapping cannot carry out (a new required attribute without
/// a default, say).
public let NSInferredMappingModelError = 134_190
/// Core Data's code for a failed import of external records; no error here carries it.
public let NSExternalRecordImportError = 134_200
/// Core Data's code for a history token whose transactions were deleted; no error here carries it.
public let NSPersistentHistoryTokenExpiredError = 134_301

// The keys of a Core Data error's `userInfo`.

/// The errors of a save with several failures, each an `NSError`.
public let NSDetailedErrorsKey = "NSDetailedErrors"
/// The object that failed validation.
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
/// The key that failed validation.
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
/// The predicate that failed validation.
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
/// The value that failed validation.
public let NSValidationValueErrorKey = "NSValidationErrorValue"
/// The stores an error concerns; no error here sets it.
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
/// The objects an error concerns (here, the object IDs of a merge conflict's objects).
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
/// The merge conflicts of a failed save in Core Data; no error here sets it (a merge conflict uses
/// `NSAffectedObjectsErrorKey`).
public let NSPersistentStoreSaveConflictsErrorKey = "conflictList"
/// The domain of Core Data errors whose code is SQLite's result code; no error here uses it.
public let NSSQLiteErrorDomain = "NSSQLiteErrorDomain"
