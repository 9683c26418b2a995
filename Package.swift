// swift-tools-version:6.1
import Foundation
import PackageDescription

/// One list of settings for every target, so strictness is uniform (Hummingbird does the same).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Encore",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "encore", targets: ["encore"]),
        .executable(name: "encore-sample", targets: ["encore-sample"]),
        .library(name: "EncoreCatalog", targets: ["Catalog"]),
        .library(name: "EncoreIngest", targets: ["Ingest"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
    ],
    targets: [
        .target(name: "Geo", resources: [.copy("Resources")], swiftSettings: swiftSettings),
        .target(name: "Listings", dependencies: ["Geo"], swiftSettings: swiftSettings),
        .target(name: "Ingest", dependencies: ["Listings", "Geo", "CCurl", "CZlib"], swiftSettings: swiftSettings),
        // libcurl's easy interface for the crawler's HTTP (a C target: its option calls
        // are variadic). Linux's URLSession spun a core while a server stalled and held a
        // whole body in memory before its size could be checked.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        // zlib's inflate for gzipped sitemaps (`sitemap.xml.gz`), bounded as it inflates.
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        .target(
            name: "Catalog",
            dependencies: [
                "Listings", "Geo", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the hot query paths (ColumnCursor).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "Feeds", dependencies: ["Listings", "Geo", .product(name: "Plot", package: "Plot")], resources: [.copy("Site")],
            swiftSettings: swiftSettings),
        .target(name: "SampleWorld", dependencies: ["Geo"], swiftSettings: swiftSettings),
        .target(
            name: "EncoreCLI",
            dependencies: [
                "Listings", "Geo", "Ingest", "Catalog", "Feeds",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings),
        .executableTarget(name: "encore", dependencies: ["EncoreCLI"], swiftSettings: swiftSettings),
        .executableTarget(name: "encore-sample", dependencies: ["SampleWorld"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "encore-bench",
            dependencies: ["Catalog", "Geo", "Listings", "SampleWorld", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/EncoreBenchmarks",
            swiftSettings: swiftSettings),
        .testTarget(
            name: "EncoreTests",
            dependencies: [
                "Geo", "Listings", "Ingest", "Catalog", "Feeds", "EncoreCLI",
                .product(name: "GRDB", package: "GRDB.swift"), "SampleWorld",
            ],
            swiftSettings: swiftSettings),
    ]
)

// Coverage-guided fuzzing of the parsers (scripts/fuzz.sh sets ENCORE_FUZZ): a libFuzzer
// binary, built with the address sanitizer, only when asked for.
if ProcessInfo.processInfo.environment["ENCORE_FUZZ"] != nil {
    package.targets.append(
        .executableTarget(
            name: "encore-fuzz", dependencies: ["Ingest", "Listings"], path: "Fuzz",
            swiftSettings: swiftSettings + [.unsafeFlags(["-sanitize=fuzzer,address", "-parse-as-library"])],
            // libFuzzer without its main: SwiftPM names the program's entry point after
            // the target, and Fuzz/FuzzTarget.swift hands over to libFuzzer's driver.
            linkerSettings: [
                .unsafeFlags([
                    "-sanitize=address",
                    "-Xlinker", "--whole-archive", "-Xlinker", "-lclang_rt.fuzzer_no_main-x86_64",
                    "-Xlinker", "--no-whole-archive", "-lstdc++",
                ])
            ]))
}
