import Foundation
import ObjectGraph
import ObjectModel

// The all-features model's classes, made by the TermDataClasses plugin at build time, at work:
// every attribute type, inheritance, an ordered to-many and a fetched property.
let modelURL = URL(fileURLWithPath: CommandLine.arguments[1])
let coordinator = PersistentStoreCoordinator(model: try ModelFile.read(modelURL).current)
ModelClasses.register(in: coordinator)
try coordinator.addStore(type: .inMemory)
let context = ManagedObjectContext(coordinator: coordinator)

let all = try context.insert(AllTypesOfAttributes.self)
all.binaryAttribute = Data([1, 2])
all.booleanAttribute = true
all.dateAttribute = Date(timeIntervalSinceReferenceDate: 0)
all.decimalAttribute = Decimal(string: "1.25")
all.doubleAttribute = 0.5
all.floatAttribute = 0.25
all.integer16Attribute = 16
all.integer32Attribute = 32
all.integer64Attribute = 64
all.stringAttribute = "text"
all.transformableAttribute = .data(Data([9]))
let concrete = try context.insert(ConcreteEntity.self)
let from = try context.insert(RelationshipFrom.self)
let first = try context.insert(RelationshipTo.self), second = try context.insert(RelationshipTo.self)
from.addToRelationshiopProperties(second)
from.addToRelationshiopProperties(first)
from.toManyRelationship = [first]
try context.save()

let abstract: AbstractEntity? = try context.fetch(AbstractEntity.fetchRequest()).first
let found = try context.fetch(try FetchRequest<AllTypesOfAttributes>(#Predicate { $0.integer32Attribute! > 30 && $0.stringAttribute == "text" }))
let fetched: [FetchedProperties] = try context.insert(FetchedProperties.self).fetchedProperty
print([
    "abstract=\(abstract === concrete)",
    "found=\(found.count)",
    "values=\(found[0].binaryAttribute!.count),\(found[0].booleanAttribute!),\(found[0].decimalAttribute!),\(found[0].floatAttribute!),\(found[0].integer16Attribute!),\(found[0].integer64Attribute!)",
    "ordered=\(from.relationshiopProperties == [second, first])",
    "inverse=\(first.relationship3 === from)",
    "fetchedProperty=\(type(of: fetched))",
].joined(separator: " "))
