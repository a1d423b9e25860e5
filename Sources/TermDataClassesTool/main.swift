import Foundation
import ModelCodegen
import ObjectModel

// `termdata-classes MODEL OUTPUT`: every class of a model in one Swift file, for the
// TermDataClasses build plugin. The file is rewritten only when its text changes, so that
// an unchanged model compiles nothing again.

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: termdata-classes MODEL.xcdatamodeld OUTPUT.swift\n".utf8))
    exit(2)
}
let model = URL(fileURLWithPath: arguments[1]), output = URL(fileURLWithPath: arguments[2])
do {
    let versions = try ModelFile.read(model)
    let generator = SwiftClassGenerator(model: versions.current, modelName: model.deletingPathExtension().lastPathComponent,
                                        modelFileName: model.lastPathComponent)
    let text = try generator.combinedFile()?.text
        ?? "// \(model.lastPathComponent) asks for no classes: every entity's code generation is manual.\n"
    if (try? String(contentsOf: output, encoding: .utf8)) != text {
        try text.write(to: output, atomically: true, encoding: .utf8)
    }
} catch {
    // As a compiler reports: the build log shows the model and what is wrong with it.
    FileHandle.standardError.write(Data("\(model.path): error: \(error)\n".utf8))
    exit(1)
}
