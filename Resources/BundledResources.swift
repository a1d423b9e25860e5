import Foundation

/// Files that ship with TermData: the ToDo model and its sample data.
///
/// ```swift
/// let model = try ObjectModelReader.read(BundledResources.toDoModelURL)
/// ```
public enum BundledResources {
    /// The ToDo application's versioned model, `ToDo.xcdatamodeld`.
    public static var toDoModelURL: URL {
        guard let url = Bundle.module.url(forResource: "ToDo", withExtension: "xcdatamodeld") else {
            preconditionFailure("the ToDo model is missing from the resource bundle at \(Bundle.module.bundlePath)")
        }
        return url
    }
}
