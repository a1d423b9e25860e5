import Foundation
import ObjectGraph
import ObjectModel
import Synchronization

/// How Core Data's API finds the class an entity's objects are made as, and the entity a
/// class stands for, without the Objective-C runtime that Core Data asks by name.
///
/// An entity names its class (`representedClassName`: "Item", ".Item" for Xcode's "current
/// product module", or "Module.Item"). A class is found for it
/// - by name, through Swift's run-time type lookup, when the name has a module or the class
///   is in a module already met (the program's own, named after it, and that of every class
///   used below);
/// - by use: `Item(context:)`, a fetch through `NSFetchRequest<Item>` or `Item.entity()`
///   makes `Item` the class of the entity that names it (or, naming none, is called `Item`).
///
/// Found, the class is registered with the coordinator (`register(_:forEntityName:)`), so
/// that fetches, relationships and `object(with:)` make instances of it.
enum ManagedClasses {
    /// The modules classes were met in, and the names already looked up in vain, behind a lock.
    private static let state = Mutex(State())

    private struct State {
        var modules: [String] = [ManagedClasses.programModule].compactMap { $0 }
        var unresolvable: Set<String> = []
    }

    /// The program's module, as SwiftPM names an executable's: its name with every character
    /// that cannot be in an identifier made `_`.
    private static var programModule: String? {
        let name = ProcessInfo.processInfo.processName
        guard !name.isEmpty else { return nil }
        return String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    }

    /// The name of a class without its module, and with it.
    static func names(of type: AnyClass) -> (simple: String, qualified: String) {
        (String(describing: type), String(reflecting: type))
    }

    /// Whether an entity's class name names `type`.
    static func className(_ className: String, names type: AnyClass) -> Bool {
        let (simple, qualified) = names(of: type)
        let name = className.hasPrefix(".") ? String(className.dropFirst()) : className
        return name == qualified || name == simple || (name.contains(".") && qualified.hasSuffix("." + name))
    }

    /// Remembers the module of a class met in Core Data code; a module met for the first time
    /// may hold the classes other entities name, so every coordinator in use looks again.
    static func meet(_ type: AnyClass) {
        let qualified = String(reflecting: type)
        guard let dot = qualified.firstIndex(of: ".") else { return }
        let module = String(qualified[..<dot])
        let isNew = state.withLock { state in
            guard !state.modules.contains(module) else { return false }
            state.modules.append(module)
            state.unresolvable = []
            return true
        }
        if isNew {
            for coordinator in CoordinatorDirectory.all { resolveAllByName(in: coordinator) }
        }
    }

    /// The entity of `model` whose objects `type` stands for: the one that names it as its
    /// class, else one without a class named like it. A class no entity stands for is a
    /// programming error, as in Core Data.
    static func entity(for type: ManagedObject.Type, in model: ManagedObjectModel) -> Entity {
        let named = model.entities.filter { $0.declaration.className.map { className($0, names: type) } ?? false }
        if let entity = named.first(where: { $0.declaration.className == String(reflecting: type) }) ?? named.first {
            return entity
        }
        let simple = String(describing: type)
        if let entity = model.entity(named: simple), entity.declaration.className == nil { return entity }
        preconditionFailure("no entity of the model names \(String(reflecting: type)) as its class (representedClassName)")
    }

    /// Makes `type` the class of the entity it stands for in the coordinator's model, unless
    /// a class is registered for that entity already. Returns the entity.
    @discardableResult
    static func adopt(_ type: ManagedObject.Type, in coordinator: PersistentStoreCoordinator) -> Entity {
        meet(type)
        let entity = entity(for: type, in: coordinator.model)
        if coordinator.registeredClass(forEntityName: entity.name) == nil {
            coordinator.register(type, forEntityName: entity.name)
        }
        return entity
    }

    /// Before a fetch of `entityName`'s objects as `Result`: a managed-object class is adopted
    /// for the entity that names it; otherwise the classes the fetched entities name are looked
    /// up by name.
    static func prepareFetch<Result>(of entityName: String, as result: Result.Type, in coordinator: PersistentStoreCoordinator) {
        if let type = result as? ManagedObject.Type, type != ManagedObject.self {
            let entity = entity(for: type, in: coordinator.model)
            if entity.name == entityName || coordinator.model.entity(named: entityName)?.isKind(of: entity.name) == true {
                adopt(type, in: coordinator)
            }
        }
        guard let entity = coordinator.model.entity(named: entityName) else { return }
        for kind in entity.kindNames { resolveByName(kind, in: coordinator) }
    }

    /// Registers the classes of every entity of the coordinator's model that can be found by name.
    static func resolveAllByName(in coordinator: PersistentStoreCoordinator) {
        for entity in coordinator.model.entities { resolveByName(entity.name, in: coordinator) }
    }

    /// Looks up by name the class an entity names, when none is registered for it, and
    /// registers it when found.
    static func resolveByName(_ entityName: String, in coordinator: PersistentStoreCoordinator) {
        guard let entity = coordinator.model.entity(named: entityName),
              let declared = entity.declaration.className, declared != "NSManagedObject",
              coordinator.registeredClass(forEntityName: entityName) == nil else { return }
        let name = declared.hasPrefix(".") ? String(declared.dropFirst()) : declared
        let (modules, unresolvable) = state.withLock { ($0.modules, $0.unresolvable) }
        guard !unresolvable.contains(name) else { return }
        let candidates = name.contains(".") ? [name] + modules.map { "\($0).\(name)" } : modules.map { "\($0).\(name)" }
        for candidate in candidates {
            if let type = _typeByName(candidate) as? ManagedObject.Type {
                coordinator.register(type, forEntityName: entityName)
                return
            }
        }
        state.withLock { _ = $0.unresolvable.insert(name) }
    }
}
