import Foundation
import Predicates

// libFuzzer entry point: every input is read as a compiled model (a `.mom`, or a store's
// cached model once inflated). Reading must end in a model or a ModelError naming the
// file: a crash, a hang, memory out of proportion to the input, or another error is a
// finding. A model that reads is summarised, as `termdata model` prints it.

@_cdecl("LLVMFuzzerTestOneInput")
public func compiledModelFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    do {
        let model = try CompiledModelFile.model(archive: bytes, file: "fuzz.mom")
        _ = ModelSummary(try ModelVersions(versions: [.init(name: "fuzz", model: model)], currentVersionName: "fuzz")).text
    } catch let error as ModelError {
        guard error.file == "fuzz.mom" else { fatalError("a ModelError that does not name the file: \(error)") }
    } catch {
        fatalError("reading threw \(type(of: error)) rather than a ModelError: \(error)")
    }
    return 0
}
