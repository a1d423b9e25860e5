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
public let NSValidationMissingMandatoryPropertyError = 1570
public let NSValidationRelationshipLacksMinimumCountError = 1580
public let NSValidationRelationshipExceedsMaximumCountError = 1590
public let NSValidationRelationshipDeniedDeleteError = 1600
public let NSValidationNumberTooLargeError = 1610
public let NSValidationNumberTooSmallError = 1620
public let NSValidationDateTooLateError = 1630
public let NSValidationDateTooSoonError = 1640
public let NSValidationInvalidDateError = 1650
public let NSValidationStringTooLongError = 1660
public let NSValidationStringTooShortError = 1670
public let NSValidationStringPatternMatchingError = 1680
public let NSValidationInvalidURIError = 1690
public let NSManagedObjectContextLockingError = 132_000
public let NSPersistentStoreCoordinatorLockingError = 132_010
/// A fault whose object is no longer in the store.
public let NSManagedObjectReferentialIntegrityError = 133_000
public let NSManagedObjectExternalRelationshipError = 133_010
/// A save that found objects changed by another save since they were read.
public let NSManagedObjectMergeError = 133_020
public let NSManagedObjectConstraintMergeError = 133_021
public let NSPersistentStoreInvalidTypeError = 134_000
public let NSPersistentStoreTypeMismatchError = 134_010
public let NSPersistentStoreIncompatibleSchemaError = 134_020
public let NSPersistentStoreSaveError = 134_030
public let NSPersistentStoreIncompleteSaveError = 134_040
public let NSPersistentStoreSaveConflictsError = 134_050
/// A failure with no more particular code.
public let NSCoreDataError = 134_060
public let NSPersistentStoreOperationError = 134_070
public let NSPersistentStoreOpenError = 134_080
public let NSPersistentStoreTimeoutError = 134_090
public let NSPersistentStoreUnsupportedRequestTypeError = 134_091
/// A store made with another model, which the container's model cannot open.
public let NSPersistentStoreIncompatibleVersionHashError = 134_100
public let NSMigrationError = 134_110
public let NSMigrationConstraintViolationError = 134_111
public let NSMigrationCancelledError = 134_120
public let NSMigrationMissingSourceModelError = 134_130
public let NSMigrationMissingMappingModelError = 134_140
public let NSMigrationManagerSourceStoreError = 134_150
public let NSMigrationManagerDestinationStoreError = 134_160
public let NSEntityMigrationPolicyError = 134_170
public let NSSQLiteError = 134_180
public let NSInferredMappingModelError = 134_190
public let NSExternalRecordImportError = 134_200
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
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
/// The objects an error concerns (here, the object IDs of a merge conflict's objects).
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
public let NSPersistentStoreSaveConflictsErrorKey = "conflictList"
public let NSSQLiteErrorDomain = "NSSQLiteErrorDomain"
