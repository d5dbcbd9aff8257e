// swift-tools-version: 6.1
import PackageDescription

// Optional SQLite compile options, one SwiftPM trait each. The trait name is
// the SQLite option itself: it is defined for the C build of the amalgamation,
// for the Swift importer (so prototypes guarded by the option become visible),
// and for Swift `#if` checks, under that one name.
let optionalSQLiteOptions: [(name: String, description: String)] = [
    ("SQLITE_ENABLE_SESSION",
     "Builds SQLite with SQLITE_ENABLE_SESSION: the session extension (changesets and patchsets)."),
    ("SQLITE_ENABLE_STAT4",
     "Builds SQLite with SQLITE_ENABLE_STAT4: ANALYZE collects histograms that help the query planner."),
    ("SQLITE_ENABLE_DBSTAT_VTAB",
     "Builds SQLite with SQLITE_ENABLE_DBSTAT_VTAB: the dbstat virtual table that reports page usage."),
    ("SQLITE_ENABLE_BYTECODE_VTAB",
     "Builds SQLite with SQLITE_ENABLE_BYTECODE_VTAB: the bytecode() and tables_used() table-valued functions."),
    ("SQLITE_HAS_CODEC",
     "Builds SQLite3 Multiple Ciphers in place of the stock SQLite: encrypted databases, SQLCipher-compatible by default (usePassphrase)."),
]

let traitCSettings: [CSetting] = optionalSQLiteOptions.map {
    .define($0.name, .when(traits: [$0.name]))
}
let traitSwiftSettings: [SwiftSetting] = optionalSQLiteOptions.map {
    .define($0.name, .when(traits: [$0.name]))
}

let package = Package(
    name: "Cairn",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v7)],
    products: [
        .library(name: "Cairn", targets: ["Cairn"]),
    ],
    traits: .init(optionalSQLiteOptions.map { .trait(name: $0.name, description: $0.description) }
        + [.default(enabledTraits: [])]),
    targets: [
        .target(
            name: "CairnSQLite",
            path: "Vendor/SQLite",
            exclude: ["sqlite3.c", "sqlite3mc.c", "sqlite3ext.h", "VERSION", "update-sqlite.sh", "LICENSE-sqlite3mc.txt"],
            sources: ["CairnSQLite.c"],
            cSettings: traitCSettings,
            linkerSettings: [
                .linkedLibrary("m", .when(platforms: [.linux])),
                .linkedLibrary("dl", .when(platforms: [.linux])),
            ]
        ),
        .target(
            name: "Cairn",
            dependencies: ["CairnSQLite"],
            cSettings: traitCSettings,
            swiftSettings: traitSwiftSettings,
            linkerSettings: [
                // The ICU of the toolchain's Foundation (`swift_ubrk_*`),
                // for the word boundaries of FTS5WordTokenizer. Apple
                // platforms use the system's word segmentation instead.
                .linkedLibrary("_FoundationICU", .when(platforms: [.linux, .android, .windows])),
            ]
        ),
        // Benchmarks: measure Cairn against the raw C API of the same SQLite.
        .target(
            name: "BenchmarkSupport",
            dependencies: ["Cairn"],
            path: "Benchmarks/Support"
        ),
        .executableTarget(
            name: "FetchBenchmark",
            dependencies: ["Cairn", "BenchmarkSupport"],
            path: "Benchmarks/FetchBenchmark"
        ),
        .executableTarget(
            name: "InsertBenchmark",
            dependencies: ["Cairn", "BenchmarkSupport"],
            path: "Benchmarks/InsertBenchmark"
        ),
        .executableTarget(
            name: "FTSBenchmark",
            dependencies: ["Cairn", "CairnSQLite", "BenchmarkSupport"],
            path: "Benchmarks/FTSBenchmark",
            // Raw C's side of the word tokenizer workload calls ICU.
            linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux, .android, .windows]))]
        ),
        .executableTarget(
            name: "AssociationBenchmark",
            dependencies: ["Cairn", "CairnSQLite", "BenchmarkSupport"],
            path: "Benchmarks/AssociationBenchmark"
        ),
        .executableTarget(
            name: "EncryptionBenchmark",
            dependencies: ["Cairn", "BenchmarkSupport"],
            path: "Benchmarks/EncryptionBenchmark",
            swiftSettings: traitSwiftSettings
        ),
        .executableTarget(
            name: "PoolBenchmark",
            dependencies: ["Cairn", "BenchmarkSupport"],
            path: "Benchmarks/PoolBenchmark"
        ),
        .executableTarget(
            name: "ObservationBenchmark",
            dependencies: ["Cairn", "BenchmarkSupport"],
            path: "Benchmarks/ObservationBenchmark"
        ),
        // Examples: real programs on the public API only.
        .target(
            name: "CairnSearchKit",
            dependencies: ["Cairn"],
            path: "Examples/CairnSearch/Sources/CairnSearchKit"
        ),
        .executableTarget(
            name: "cairn-search",
            dependencies: ["Cairn", "CairnSearchKit"],
            path: "Examples/CairnSearch/Sources/cairn-search"
        ),
        .testTarget(
            name: "CairnSearchTests",
            dependencies: ["Cairn", "CairnSearchKit"],
            path: "Examples/CairnSearch/Tests/CairnSearchTests"
        ),
        // Test support: the writer and verifier that Scripts/check-replication.sh
        // runs beside Litestream.
        .executableTarget(
            name: "ReplicationCheck",
            dependencies: ["Cairn"],
            path: "Tests/ReplicationCheck"
        ),
        // Test support: a VFS that fails chosen I/O operations on demand.
        .target(
            name: "CairnFaultVFS",
            dependencies: ["CairnSQLite"],
            path: "Tests/CairnFaultVFS",
            cSettings: traitCSettings
        ),
        .testTarget(
            name: "CairnTests",
            dependencies: ["Cairn", "CairnFaultVFS"],
            cSettings: traitCSettings,
            swiftSettings: traitSwiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
