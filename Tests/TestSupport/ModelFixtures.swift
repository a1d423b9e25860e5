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
    public static var tavantTrade: URL { Fixtures.corpusFile("tavant-trade/Model.xcdatamodeld") }
    public static var toDo: URL { BundledResources.toDoModelURL }

    /// Every model in the corpus.
    public static var corpusModels: [URL] { [employeeDirectory, allFeatures, tavantTrade] }

    /// The current version of the bundled ToDo model.
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
