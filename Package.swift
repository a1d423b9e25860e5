// swift-tools-version:6.0
import CompilerPluginSupport
import Foundation
import PackageDescription

let package = Package(
    name: "TermData",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "termdata", targets: ["termdata"]),
        .library(name: "TermData", targets: ["Predicates", "ObjectModel", "ObjectGraph", "Bindings", "Migration"]),
        // The stores, each a product of its own so that a program links only the engines it opens.
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        // Object graphs to and from JSON and CSV, and Swift classes from a model.
        .library(name: "Interchange", targets: ["Interchange"]),
        .library(name: "ModelCodegen", targets: ["ModelCodegen"]),
        .library(name: "TermDataTerminal", targets: ["TerminalUI", "TerminalUICurses"]),
        .plugin(name: "TermDataClasses", targets: ["TermDataClasses"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
        // `swift package generate-documentation`: each library's DocC catalogue, built in CI.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // Persistence stack
        .target(
            name: "CICURegex",
            path: "Sources/CICURegex",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]
        ),
        .target(name: "Predicates", dependencies: ["CICURegex"]),
        .target(name: "ObjectModel", dependencies: ["Predicates"]),
        .target(
            name: "ObjectGraph",
            dependencies: [
                "ObjectModel", "Predicates",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .target(name: "Bindings", dependencies: ["ObjectGraph", "ObjectModel", "Predicates"]),
        .target(name: "Migration", dependencies: ["ObjectGraph", "ObjectModel", "Predicates"]),
        // Swift classes from a model: `termdata model --swift`, and the build plugin
        .target(name: "ModelCodegen", dependencies: ["ObjectModel", "Predicates"]),
        .executableTarget(name: "termdata-classes", dependencies: ["ModelCodegen", "ObjectModel"], path: "Sources/TermDataClassesTool"),
        .plugin(name: "TermDataClasses", capability: .buildTool(), dependencies: ["termdata-classes"]),

        .target(name: "SQLSyntax", dependencies: ["ObjectGraph", "ObjectModel", "Predicates"]),
        // zlib: a Core Data store caches its model compressed with DEFLATE.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The one SQLite setting Swift cannot reach (a variadic call): a connection's triggers.
        .target(name: "CSQLiteConfig", path: "Sources/CSQLiteConfig", linkerSettings: [.linkedLibrary("sqlite3")]),
        // Text tests on plain ASCII text, called for every row a text predicate reads: in C, so
        // that a row costs a scan of its bytes and no call into Swift.
        .target(name: "CSQLiteText", path: "Sources/CSQLiteText", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "SQLiteStore",
            dependencies: [
                "ObjectGraph", "ObjectModel", "Predicates", "SQLSyntax", "CZlib", "CSQLiteConfig", "CSQLiteText",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "PostgresStore",
            dependencies: [
                "ObjectGraph", "ObjectModel", "Predicates", "SQLSyntax",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Terminal toolkit
        .systemLibrary(
            name: "CNcursesw",
            path: "Sources/CNcursesw",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncursesw5-dev"])]
        ),
        .target(name: "TerminalUI"),
        .target(name: "TerminalUICurses", dependencies: ["TerminalUI", "CNcursesw"]),
        .target(name: "TerminalBindings", dependencies: ["TerminalUI", "Bindings", "ObjectGraph", "ObjectModel", "Predicates"]),

        // Import and export
        .target(name: "Interchange", dependencies: ["ObjectGraph", "ObjectModel", "Predicates"]),

        // Applications
        .target(name: "AppShell", dependencies: [
            "Bindings", "Interchange", "TerminalBindings", "TerminalUI", "ObjectGraph", "ObjectModel", "Predicates",
        ]),
        .target(
            name: "ToDoApp",
            dependencies: [
                "AppShell", "TerminalBindings", "TerminalUI", "Bindings", "Migration", "SQLiteStore", "PostgresStore",
                "ObjectGraph", "ObjectModel", "Predicates", "TermDataResources",
            ],
            // ToDoItem's and ToDoCategory's properties, from the bundled model in TermDataResources.
            plugins: ["TermDataClasses"]
        ),
        .target(
            name: "Browser",
            dependencies: ["AppShell", "Interchange", "TerminalBindings", "TerminalUI", "Bindings", "ObjectGraph", "ObjectModel", "Predicates"]
        ),

        // Bundled models and sample data
        .target(
            name: "TermDataResources",
            path: "Resources",
            exclude: ["README.md"],
            resources: [.copy("ToDo.xcdatamodeld"), .copy("ToDo.termdata-mapping")]
        ),

        // Executables
        .executableTarget(
            name: "termdata",
            dependencies: [
                "Predicates", "ObjectModel", "ObjectGraph", "Migration", "ModelCodegen", "SQLiteStore", "PostgresStore", "TermDataResources", "ToDoApp", "Browser",
                "AppShell", "Interchange", "TerminalUI", "TerminalUICurses",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "termdata-gallery",
            dependencies: ["TerminalUI", "TerminalUICurses"],
            path: "Sources/TermDataGallery"
        ),
        .executableTarget(
            name: "termdata-bench",
            dependencies: [
                "Predicates", "ObjectModel", "ObjectGraph", "Bindings", "Migration", "SQLiteStore", "PostgresStore", "TerminalUI", "ToDoApp",
                "Interchange",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/TermDataBenchmarks"
        ),

        // Tests
        .target(
            name: "TestSupport",
            dependencies: ["Predicates", "ObjectModel", "ObjectGraph", "SQLSyntax", "TerminalUI", "TermDataResources"],
            path: "Tests/TestSupport",
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "PredicatesTests", dependencies: ["Predicates", "TestSupport"]),
        .testTarget(name: "ObjectModelTests", dependencies: ["ObjectModel", "Predicates", "TestSupport"]),
        .testTarget(name: "ObjectGraphTests", dependencies: ["ObjectGraph", "ObjectModel", "Predicates", "TestSupport"]),
        .testTarget(name: "ConcurrencyTests", dependencies: [
            "Bindings", "ObjectGraph", "ObjectModel", "Predicates", "SQLiteStore", "TestSupport",
        ]),
        .testTarget(name: "BindingsTests", dependencies: ["Bindings", "ObjectGraph", "ObjectModel", "Predicates", "TestSupport"]),
        .testTarget(name: "MigrationTests", dependencies: [
            "Migration", "SQLiteStore", "ObjectGraph", "ObjectModel", "Predicates", "TestSupport",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "TerminalBindingsTests", dependencies: [
            "TerminalBindings", "TerminalUI", "Bindings", "ObjectGraph", "ObjectModel", "Predicates", "TestSupport",
        ]),
        .testTarget(name: "ToDoAppTests", dependencies: [
            "ToDoApp", "AppShell", "Interchange", "TerminalUI", "ObjectGraph", "ObjectModel", "Predicates", "TestSupport", "TermDataResources",
        ], exclude: ["Screens"]),
        .testTarget(name: "InterchangeTests", dependencies: ["Interchange", "ObjectGraph", "ObjectModel", "Predicates", "SQLiteStore", "TestSupport"]),
        .testTarget(name: "BrowserTests", dependencies: [
            "AppShell", "Browser", "SQLiteStore", "TerminalUI", "ObjectGraph", "ObjectModel", "Predicates", "TestSupport",
        ], exclude: ["Screens"]),
        .testTarget(name: "SQLSyntaxTests", dependencies: ["SQLSyntax", "TestSupport"]),
        .testTarget(name: "SQLiteStoreTests", dependencies: [
            "SQLiteStore", "SQLSyntax", "ObjectGraph", "ObjectModel", "Predicates", "TestSupport", "CSQLiteText",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "PostgresStoreTests", dependencies: [
            "PostgresStore", "Migration", "ObjectGraph", "ObjectModel", "Predicates", "TestSupport",
        ]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "TestSupport"]),
        // The Shop model's classes are checked in as `termdata model --swift` writes them; the
        // all-features corpus model's are made at build time by the plugin (Models/ links to it).
        .testTarget(name: "TypedAPITests", dependencies: [
            "Bindings", "ModelCodegen", "ObjectGraph", "ObjectModel", "Predicates", "SQLiteStore", "TestSupport",
        ], plugins: ["TermDataClasses"]),
        .testTarget(name: "CommandLineTests", dependencies: [
            "TestSupport", "ObjectModel", "ObjectGraph", "SQLiteStore", "PostgresStore", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)

// `import CoreData` on Linux: Core Data's API under Apple's names, over the engine above, so
// that one source file builds on both. Where Apple's framework exists, `import CoreData`
// keeps meaning Apple's, and this module is not built.
//
// CI's ThreadSanitizer build (TERMDATA_SANITIZER_BUILD=1) leaves it out too: the suites it
// runs are the engine's, and its macro's swift-syntax would cost that build six minutes.
#if os(Linux)
if Context.environment["TERMDATA_SANITIZER_BUILD"] == nil {
    package.products.append(.library(name: "CoreData", targets: ["CoreData"]))
    // `@Managed`, Core Data's `@NSManaged` for Linux, is a macro.
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"))
    package.targets += [
        .macro(name: "CoreDataMacros", dependencies: [
            .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        ]),
        .target(name: "CoreData", dependencies: ["CoreDataMacros", "ObjectGraph", "ObjectModel", "Predicates", "SQLiteStore", "Migration"]),
        // The macro is tested through the compiler (ManagedMacroTests), not in process: a test
        // target that depends on a macro target makes SwiftPM build every test target, and all
        // they use, a second time for the host (the whole package twice).
        .testTarget(name: "CoreDataTests", dependencies: ["CoreData", "ModelCodegen"], resources: [.copy("Library.xcdatamodeld")]),
    ]
    // Core Data's API beside the engine's, timed (docs/PERFORMANCE.md).
    package.targets.append(.executableTarget(
        name: "termdata-bench-coredata",
        dependencies: ["CoreData", "ObjectGraph", "ObjectModel", "Predicates", "SQLiteStore"],
        path: "Sources/CoreDataBenchmark"
    ))

    // Core Data code as apps write it for Apple's systems (Examples/CoreDataApps: an old
    // hand-built stack, a persistent container, Xcode's generated classes, each with its XCTest
    // tests) builds here once `termdata port` has made its edits. CI ports a copy into
    // Examples/Ported (not kept), then builds and tests it in this package, on the build it has:
    //     cp -R Examples/CoreDataApps Examples/Ported && swift run termdata port Examples/Ported --write
    // Each app folder APP holds APPData (the layer, with APP.xcdatamodeld) and APPDataTests,
    // in Swift 5 mode, as such code was written.
    let ported = Context.packageDirectory + "/Examples/Ported"
    let folders = ((try? FileManager.default.contentsOfDirectory(atPath: ported)) ?? []).filter { name in
        var isFolder: ObjCBool = false
        return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: ported + "/" + name, isDirectory: &isFolder) && isFolder.boolValue
    }
    for app in folders.sorted() {
        let layer = app + "Data"
        package.targets += [
            .target(name: layer, dependencies: ["CoreData"], path: "Examples/Ported/\(app)/\(layer)",
                    resources: [.copy("\(app).xcdatamodeld")], swiftSettings: [.swiftLanguageMode(.v5)]),
            .testTarget(name: layer + "Tests", dependencies: [.target(name: layer), "CoreData"], path: "Examples/Ported/\(app)/\(layer)Tests",
                        swiftSettings: [.swiftLanguageMode(.v5)]),
        ]
    }
}
#endif

// CI's ThreadSanitizer build runs the concurrency suites alone (ConcurrencyTests and the
// history suites of SQLiteStoreTests and PostgresStoreTests), so it builds those suites and
// what they use: no executables, no terminal applications, no other tests.
if Context.environment["TERMDATA_SANITIZER_BUILD"] != nil {
    // Of the store test targets, only the history suites and the stacks they open; the test
    // support without its screen assertions (and so without the terminal toolkit).
    let suiteFiles = [
        "SQLiteStoreTests": ["PersistentHistoryTests.swift", "SQLiteTestStack.swift"],
        "PostgresStoreTests": ["PostgresHistoryTests.swift", "PostgresTestStack.swift"],
    ]
    for target in package.targets {
        if let files = suiteFiles[target.name] { target.sources = files }
        if target.name == "TestSupport" {
            target.exclude += ["ScreenAssertions.swift", "ScreenSnapshots.swift"]
            target.dependencies.removeAll { dependency in
                if case .byNameItem("TerminalUI", _) = dependency { return true }
                if case .targetItem("TerminalUI", _) = dependency { return true }
                return false
            }
        }
    }
    let targets = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var kept = Set<String>()
    var pending = ["ConcurrencyTests", "SQLiteStoreTests", "PostgresStoreTests"]
    while let name = pending.popLast() {
        guard let target = targets[name], kept.insert(name).inserted else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            default: break
            }
        }
    }
    package.targets.removeAll { !kept.contains($0.name) }
    package.products.removeAll { product in
        let targets = (product as? Product.Library)?.targets ?? (product as? Product.Executable)?.targets
            ?? (product as? Product.Plugin)?.targets ?? []
        return !targets.allSatisfy(kept.contains)
    }
}
