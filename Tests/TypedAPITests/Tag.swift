import Foundation
import ObjectGraph

/// The Shop model's Tag, whose code generation is "category": the class is written here,
/// its properties are generated (`Generated/Shop/Tag+Properties.swift`).
public final class Tag: ManagedObject {
    /// A label is kept trimmed.
    public override func didChangeValue(forKey key: String) {
        guard key == "label", let label, label != label.trimmingCharacters(in: .whitespaces) else { return }
        self.label = label.trimmingCharacters(in: .whitespaces)
    }
}
