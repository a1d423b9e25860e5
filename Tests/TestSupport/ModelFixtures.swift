import Foundation
import ObjectModel
import TermDataResources

/// Models the tests share: the corpus models, the bundled ToDo model, and small ones
/// built in code.
public enum ModelFixtures {
    public static var employeeDirectory: URL {
        Fixtures.corpusFile("employee-directory/EmployeeDirectory.xcdatamodeld")
    }
    public static var allFeatures: URL { Fixtures.corpusFile("all-features/model.xcdatamodeld") }
    /// CoreDataPlus's SampleModel: three versions, `Car` → `SportCar` → `ExpensiveSportCar`
    /// (`LuxuryCar` from version 2) and `Person`, with stores Core Data wrote.
    public static var sampleModel: URL { Fixtures.corpusFile("coredataplus-samplemodel/SampleModel.xcdatamodeld") }
    public static var xcodeServer: URL { Fixtures.corpusFile("xcodeserver-1.0/XcodeServer.xcdatamodeld") }
    public static var toDo: URL { BundledResources.toDoModelURL }

    /// Every Xcode model in the corpus.
    public static var corpusModels: [URL] { [employeeDirectory, allFeatures, sampleModel, xcodeServer] }

    /// The store Core Data wrote with SampleModel's first version (the current one): 125
    /// cars of three entities, 20 people, in WAL mode without `-wal` or `-shm` files.
    public static var sampleStoreV1: URL { Fixtures.corpusFile("coredataplus-samplemodel/SampleModel_V1.sqlite") }

    /// The store Core Data wrote with SampleModel's second version, in rollback-journal mode;
    /// its `Z_PRIMARYKEY` still names `LuxuryCar` by its old name, `ExpensiveSportCar`.
    public static var sampleStoreV2: URL { Fixtures.corpusFile("coredataplus-samplemodel/SampleModel_V2.sqlite") }

    /// A version of SampleModel by name (`SampleModel`, `SampleModel2`, `SampleModel3`).
    public static func sampleModel(version: String = "SampleModel") throws -> ManagedObjectModel {
        guard let model = try XcodeModelFile.read(sampleModel).version(named: version) else {
            preconditionFailure("SampleModel has no version \(version)")
        }
        return model
    }

    /// The current version of the bundled ToDo model.
    /// A shelf of books with tags: a one-to-many, a many-to-many, two attributes a deleted
    /// book keeps in its history, and a date, a decimal and bytes.
    public static func libraryModel() throws -> ManagedObjectModel {
        let url = try ModelFixtures.writeModelFile(ModelFixtures.modelXML("""
            <entity name="Shelf" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
            </entity>
            <entity name="Book" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String" preserveAfterDeletion="YES"/>
                <attribute name="isbn" optional="YES" attributeType="String" preserveAfterDeletion="YES"/>
                <attribute name="pages" optional="YES" attributeType="Integer 64" usesScalarValueType="NO"/>
                <attribute name="published" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="price" optional="YES" attributeType="Decimal"/>
                <attribute name="cover" optional="YES" attributeType="Binary"/>
                <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
            </entity>
            <entity name="Tag" syncable="YES">
                <attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="tags" inverseEntity="Tag"/>
            </entity>
            """), name: "Library")
        return try XcodeModelFile.read(url).current
    }

    public static func toDoModel() throws -> ManagedObjectModel {
        try XcodeModelFile.read(toDo).current
    }

    /// The employee directory model: abstract Person with Employee and Contractor.
    public static func employeeModel() throws -> ManagedObjectModel {
        try XcodeModelFile.read(employeeDirectory).current
    }

    /// Writes `contents` XML into a fresh `.xcdatamodel` folder and returns its URL.
    public static func writeModelFile(_ xml: String, name: String = "Broken") throws -> URL {
        let dir = try Fixtures.temporaryDirectory("model").appendingPathComponent("\(name).xcdatamodel")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(xml.utf8).write(to: dir.appendingPathComponent("contents"))
        return dir
    }

    /// A model document around the given entity XML.
    public static func modelXML(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        \(body)
        </model>
        """
    }
}
