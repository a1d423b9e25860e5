// swift-tools-version:6.0
// A program of its own that uses TermData as any package would: by its library products.
import PackageDescription

let package = Package(
    name: "Notes",
    platforms: [.macOS(.v15)],
    dependencies: [
        // From a checkout; elsewhere: .package(url: "https://…/TermData", from: "…")
        .package(name: "TermData", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "Notes",
            dependencies: [
                .product(name: "TermData", package: "TermData"),
                .product(name: "SQLiteStore", package: "TermData"),
            ],
            resources: [.copy("Notes.xcdatamodeld")]
        ),
    ]
)
