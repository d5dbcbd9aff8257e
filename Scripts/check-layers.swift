// Checks that the layers of Sources/Cairn depend downwards only: a file of
// a layer must not name a type that a higher layer declares. The layers,
// from the bottom: Core, Access, Snapshots, Records, QueryInterface,
// Migration, Observation, FTS (the team's architecture document fixes them),
// and Session (the session extension, above all of them).
//
// Usage: swift Scripts/check-layers.swift
//
// The check reads type references, not imports: it removes comments and
// string literals, collects the types that each layer declares at top level
// (classes, structs, enums, protocols, actors, type aliases), and reports,
// with file and line, each identifier of a file that names a type of a
// higher layer, and each `Type.Nested` whose nested type a higher layer
// declares in an extension. Members (functions, properties) are not
// checked: see `extensionTypeDeclarations`.
//
// There is no list of exceptions: when a lower layer must call up, it
// declares a small internal protocol, base class or opaque slot that the
// higher layer fills.

import Foundation

/// The layers, lowest first.
let layers = ["Core", "Access", "Snapshots", "Records", "QueryInterface", "Migration", "Observation", "FTS", "Session"]

let root = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent().deletingLastPathComponent()
let sourcesPath = root.appendingPathComponent("Sources/Cairn").path

/// The rank of the layer of a file path relative to Sources/Cairn, or nil
/// for files outside the layers (Cairn.swift re-exports the C module).
func layerRank(_ relativePath: String) -> Int? {
    guard let first = relativePath.split(separator: "/").first else { return nil }
    return layers.firstIndex(of: String(first))
}

/// The code of a Swift file with comments and string literals blanked out
/// (line breaks are kept, so that line numbers stay right).
func strippedCode(_ source: String) -> [Character] {
    let text = Array(source)
    var output: [Character] = []
    output.reserveCapacity(text.count)
    var index = 0
    func blank(_ character: Character) { output.append(character == "\n" ? "\n" : " ") }
    while index < text.count {
        let character = text[index]
        let next: Character? = index + 1 < text.count ? text[index + 1] : nil
        if character == "/" && next == "/" {
            while index < text.count && text[index] != "\n" { blank(text[index]); index += 1 }
        } else if character == "/" && next == "*" {
            var depth = 0
            repeat {
                if text[index] == "/" && index + 1 < text.count && text[index + 1] == "*" {
                    depth += 1; blank(text[index]); blank(text[index + 1]); index += 2
                } else if text[index] == "*" && index + 1 < text.count && text[index + 1] == "/" {
                    depth -= 1; blank(text[index]); blank(text[index + 1]); index += 2
                } else {
                    blank(text[index]); index += 1
                }
            } while depth > 0 && index < text.count
        } else if character == "\"" || (character == "#" && (next == "\"" || next == "#")) {
            // A string literal, raw (#"…"#) or not, single or multi-line.
            var hashes = 0
            while index < text.count && text[index] == "#" { hashes += 1; blank(text[index]); index += 1 }
            guard index < text.count, text[index] == "\"" else { continue }
            let isMultiline = index + 2 < text.count && text[index + 1] == "\"" && text[index + 2] == "\""
            let quote: [Character] = isMultiline ? ["\"", "\"", "\""] : ["\""]
            for _ in quote { blank(text[index]); index += 1 }
            let terminator = quote + Array(repeating: "#", count: hashes)
            while index < text.count {
                if hashes == 0 && text[index] == "\\" && index + 1 < text.count {
                    blank(text[index]); blank(text[index + 1]); index += 2
                    continue
                }
                if Array(text[index..<min(text.count, index + terminator.count)]) == terminator {
                    for _ in terminator { blank(text[index]); index += 1 }
                    break
                }
                blank(text[index]); index += 1
            }
        } else {
            output.append(character)
            index += 1
        }
    }
    return output
}

/// The identifiers of stripped code that start with an uppercase letter,
/// and the identifiers that follow a dot (prefixed with the dot), with
/// their line numbers.
func typeLikeIdentifiers(_ code: [Character]) -> [(name: String, line: Int)] {
    var result: [(String, Int)] = []
    var line = 1
    var index = 0
    while index < code.count {
        let character = code[index]
        if character == "\n" { line += 1; index += 1; continue }
        if character.isLetter || character == "_" {
            let start = index
            while index < code.count && (code[index].isLetter || code[index].isNumber || code[index] == "_") { index += 1 }
            let isMember = start > 0 && code[start - 1] == "."
            let name = String(code[start..<index])
            if isMember {
                result.append(("." + name, line))
            } else if let first = name.first, first.isUppercase {
                result.append((name, line))
            }
            continue
        }
        index += 1
    }
    return result
}

/// The types a file declares at top level.
func topLevelDeclarations(_ code: [Character]) -> [String] {
    var names: [String] = []
    var depth = 0
    var words: [String] = []
    var index = 0
    let keywords: Set<String> = ["class", "struct", "enum", "protocol", "actor", "typealias"]
    while index < code.count {
        let character = code[index]
        if character == "{" { depth += 1; words.removeAll() }
        else if character == "}" { depth -= 1; words.removeAll() }
        if character.isLetter || character == "_" {
            let start = index
            while index < code.count && (code[index].isLetter || code[index].isNumber || code[index] == "_") { index += 1 }
            let word = String(code[start..<index])
            if depth == 0, let previous = words.last, keywords.contains(previous), word.first?.isUppercase == true {
                names.append(word)
            }
            words.append(word)
            continue
        }
        index += 1
    }
    return names
}

/// The types that a file declares in its extensions, one level deep
/// (`extension Database { enum ConflictResolution }`): code of a lower
/// layer reaches them with a dot (`Database.ConflictResolution`).
///
/// Members (functions and properties) are not checked: their names collide
/// with those of the standard library and Foundation (`map`, `name`), which
/// a reading of identifiers cannot tell apart.
func extensionTypeDeclarations(_ code: [Character]) -> [String] {
    var names: [String] = []
    var depth = 0
    var words: [String] = []
    var blockIsExtension = false
    var statementWords: [String] = []
    var index = 0
    let typeKeywords: Set<String> = ["class", "struct", "enum", "protocol", "actor", "typealias"]
    while index < code.count {
        let character = code[index]
        if character == "{" {
            if depth == 0 { blockIsExtension = statementWords.first(where: { !$0.hasPrefix("@") }) == "extension" || statementWords.contains("extension") }
            depth += 1; words.removeAll(); statementWords.removeAll()
        } else if character == "}" {
            depth -= 1; words.removeAll(); statementWords.removeAll()
        } else if character == "\n" || character == ";" {
            words.removeAll()
            if depth > 0 { statementWords.removeAll() }
        }
        if character.isLetter || character == "_" || character == "@" {
            let start = index
            index += 1
            while index < code.count && (code[index].isLetter || code[index].isNumber || code[index] == "_") { index += 1 }
            let word = String(code[start..<index])
            if depth == 1 && blockIsExtension, let previous = words.last {
                if typeKeywords.contains(previous) && word.first?.isUppercase == true {
                    names.append(word)
                }
            }
            words.append(word)
            statementWords.append(word)
            continue
        }
        index += 1
    }
    return names
}

// MARK: Reading the sources

var files: [(path: String, rank: Int, code: [Character])] = []
let enumerator = FileManager.default.enumerator(atPath: sourcesPath)
while let relative = enumerator?.nextObject() as? String {
    guard relative.hasSuffix(".swift"), let rank = layerRank(relative) else { continue }
    let source = try String(contentsOfFile: sourcesPath + "/" + relative, encoding: .utf8)
    files.append((relative, rank, strippedCode(source)))
}
files.sort { $0.path < $1.path }

/// The lowest layer that declares each type name (a name that two layers
/// declare belongs to the lowest: referring to it is never upward for the
/// higher one).
var declaringLayer: [String: (rank: Int, path: String)] = [:]
for file in files {
    for name in topLevelDeclarations(file.code) {
        if let existing = declaringLayer[name], existing.rank <= file.rank { continue }
        declaringLayer[name] = (file.rank, file.path)
    }
}

/// The lowest layer that declares each nested type of an extension, for
/// the identifiers that follow a dot.
var memberLayer: [String: (rank: Int, path: String)] = [:]
for file in files {
    for name in extensionTypeDeclarations(file.code) {
        if let existing = memberLayer[name], existing.rank <= file.rank { continue }
        memberLayer[name] = (file.rank, file.path)
    }
}

var violationCount = 0
for file in files {
    for (identifier, line) in typeLikeIdentifiers(file.code) {
        let name: String
        let declaration: (rank: Int, path: String)
        if identifier.hasPrefix(".") {
            name = String(identifier.dropFirst())
            // A nested type of a higher layer that no lower layer declares.
            guard let member = memberLayer[name], member.rank > file.rank,
                  (declaringLayer[name]?.rank ?? Int.max) > file.rank else { continue }
            declaration = member
        } else {
            name = identifier
            guard let type = declaringLayer[name], type.rank > file.rank else { continue }
            declaration = type
        }
        print("Sources/Cairn/\(file.path):\(line): \(layers[file.rank]) names \(name), declared in \(layers[declaration.rank]) (\(declaration.path))")
        violationCount += 1
    }
}
print("layers: \(files.count) files, \(violationCount) upward dependencies" + (violationCount > 0 ? ": FAILED" : ": ok"))
exit(violationCount > 0 ? 1 : 0)
