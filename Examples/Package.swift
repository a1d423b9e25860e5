// swift-tools-version:6.0
// Programs of their own that use TermData as any package would: by its library products and
// its build plugin. CI builds them together and runs each.
import PackageDescription

let package = Package(
    name: "Examples",
    platforms: [.macOS(.v15)],
    dependencies: [
        // From a checkout; elsewhere: .package(url: "https://…/TermData", from: "…")
        .package(name: "TermData", path: ".."),
    ],
    targets: [
        // Notes in a SQLite store: a model read from the program's resources, a context,
        // fetches, a save, and the store opened again.
        //     swift run --package-path Examples Notes [STORE.sqlite]
        .executableTarget(
            name: "Notes",
            dependencies: [
                .product(name: "TermData", package: "TermData"),
                .product(name: "SQLiteStore", package: "TermData"),
            ],
            resources: [.copy("Notes.xcdatamodeld")]
        ),
        // A model's classes made at build time by the TermDataClasses plugin (the model is the
        // all-features corpus model, linked from the tests' fixtures), at work.
        //     swift run --package-path Examples Classes Examples/Sources/Classes/model.xcdatamodeld
        .executableTarget(
            name: "Classes",
            dependencies: [.product(name: "TermData", package: "TermData")],
            plugins: [.plugin(name: "TermDataClasses", package: "TermData")]
        ),
    ]
)
