// swift-tools-version: 6.1
// A package that depends on Cairn as its users do, with no settings of its
// own for SQLite: Scripts/check-consumer.sh builds it with and without the
// session and encryption traits, and checks that Cairn's C helpers are hidden (it links a copy of this folder next to a link named
// "cairn" to the checkout).
import PackageDescription

let package = Package(
    name: "TraitConsumer",
    traits: [
        .trait(name: "Session", description: "Builds Cairn with its SQLITE_ENABLE_SESSION trait."),
        .trait(name: "Encryption", description: "Builds Cairn with its SQLITE_HAS_CODEC trait."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(path: "../cairn", traits: [
            .trait(name: "SQLITE_ENABLE_SESSION", condition: .when(traits: ["Session"])),
            .trait(name: "SQLITE_HAS_CODEC", condition: .when(traits: ["Encryption"])),
        ]),
    ],
    targets: [
        // Uses the session extension: built with the Session trait only.
        .executableTarget(
            name: "SessionConsumer",
            dependencies: [.product(name: "Cairn", package: "cairn")]),
        // Encrypts a database: prints what it saw, with or without the
        // Encryption trait.
        .executableTarget(
            name: "EncryptionConsumer",
            dependencies: [.product(name: "Cairn", package: "cairn")]),
        // Uses no optional feature: built in both cases.
        .executableTarget(
            name: "PlainConsumer",
            dependencies: [.product(name: "Cairn", package: "cairn")]),
        // Must not compile: Cairn's C helpers stay hidden from its users
        // (built by its name only).
        .testTarget(
            name: "ShimsAreHidden",
            dependencies: [.product(name: "Cairn", package: "cairn")]),
    ],
    swiftLanguageModes: [.v6]
)
