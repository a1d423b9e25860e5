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
        // Another process's saves followed as they happen: a second process (the program
        // itself) saves notes; this one hears each commit and reads what it was from the
        // store's history.
        //     swift run --package-path Examples Follow [STORE.sqlite]
        .executableTarget(
            name: "Follow",
            dependencies: [
                .product(name: "TermData", package: "TermData"),
                .product(name: "SQLiteStore", package: "TermData"),
            ]
        ),
        // A terminal app on the toolkit: a table of books from a SQLite store, through an array
        // controller, and a form of the selected one. `--keys` plays keys on a screen in memory.
        //     swift run --package-path Examples Shelf [STORE.sqlite] [--keys 'j<Enter>…']
        .executableTarget(
            name: "Shelf",
            dependencies: [
                .product(name: "TermData", package: "TermData"),
                .product(name: "SQLiteStore", package: "TermData"),
                .product(name: "TermDataTerminal", package: "TermData"),
            ]
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
