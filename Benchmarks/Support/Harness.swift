import Cairn
import Foundation

// The benchmark harness: runs workloads written twice, against Cairn and
// against the raw SQLite C API of the same vendored build, interleaved in one
// process, and reports the ratio of their medians.

/// The command-line options of a benchmark executable.
public struct BenchmarkOptions: Sendable {
    public var iterations = 7
    public var rows: Int
    public var filter: String?
    public var jsonPath: String?
    public var chartPath: String?
    public var check = false
    /// Runs each budgeted workload once more after its warm-up, through
    /// ``countedRun(_:)``, for `Benchmarks/instructions.sh --check`.
    public var instructions = false

    /// Parses the command line.
    ///
    /// - Parameter defaultRows: The default number of rows.
    public init(arguments: [String] = Array(CommandLine.arguments.dropFirst()), defaultRows: Int) {
        rows = defaultRows
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            func value() -> String {
                guard let value = iterator.next() else { BenchmarkOptions.usage("missing value after \(argument)") }
                return value
            }
            switch argument {
            case "--iterations":
                guard let number = Int(value()) else { BenchmarkOptions.usage("--iterations takes a number") }
                iterations = number
            case "--rows":
                guard let number = Int(value()) else { BenchmarkOptions.usage("--rows takes a number") }
                rows = number
            case "--filter": filter = value()
            case "--json": jsonPath = value()
            case "--chart": chartPath = value()
            case "--check": check = true
            case "--instructions": instructions = true
            case "--help", "-h": BenchmarkOptions.usage(nil)
            default: BenchmarkOptions.usage("unknown option \(argument)")
            }
        }
        if iterations < 1 || rows < 1 { BenchmarkOptions.usage("--iterations and --rows must be at least 1") }
    }

    static func usage(_ error: String?) -> Never {
        if let error { FileHandle.standardError.write(Data("error: \(error)\n".utf8)) }
        print("""
            options:
              --iterations N   measured iterations of each implementation (default 7)
              --rows N         rows per workload
              --filter SUBSTR  only the workloads whose name contains SUBSTR
              --json PATH      write the results as JSON
              --chart PATH     write an SVG bar chart of the ratios
              --check          exit 1 when a workload is over its budget
              --instructions   run each budgeted workload once, raw C then Cairn,
                               for callgrind (Benchmarks/instructions.sh --check)
            """)
        exit(error == nil ? 0 : 2)
    }
}

/// A workload: the same work written against the raw C API and against
/// Cairn. Both return a checksum of all the values they consumed.
public struct Workload {
    public var name: String
    public var budget: Double?
    /// The units of work of an iteration (rows, lookups…), for the
    /// throughput column; nil for the `--rows` option.
    public var units: Int?
    public var raw: () throws -> Int
    public var cairn: () throws -> Int
    /// Turns the result of an implementation into its checksum, outside the
    /// timed section (the insert workloads read back what they wrote).
    public var checksum: (Int) throws -> Int
    /// Whether `--instructions` counts the workload (when it has a
    /// budget). Off for workloads whose raw C count is not deterministic
    /// under callgrind: readers on many threads retry SQLite's WAL read
    /// locks a number of times that depends on the scheduling.
    public var countsInstructions: Bool

    /// Creates a workload.
    ///
    /// - Parameters:
    ///   - raw: The timed work, written against the C API.
    ///   - cairn: The timed work, written against Cairn.
    ///   - checksum: Turns the value returned by the timed work into the
    ///     checksum both implementations must agree on; it is not timed.
    ///     By default, the returned value is the checksum.
    ///   - units: The units of work of an iteration, when they are not the
    ///     `--rows` option.
    ///   - countsInstructions: Whether `--instructions` counts the
    ///     workload, when it has a budget.
    public init(
        _ name: String, budget: Double?,
        units: Int? = nil,
        countsInstructions: Bool = true,
        raw: @escaping () throws -> Int,
        checksum: @escaping (Int) throws -> Int = { $0 },
        cairn: @escaping () throws -> Int)
    {
        self.name = name
        self.budget = budget
        self.units = units
        self.raw = raw
        self.cairn = cairn
        self.checksum = checksum
        self.countsInstructions = countsInstructions
    }
}

/// The timings of one implementation of a workload.
public struct Timings: Codable {
    public var min: Double
    public var median: Double
    public var max: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        min = sorted[0]
        max = sorted[sorted.count - 1]
        median = sorted.count % 2 == 1
            ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

/// The result of a workload.
public struct WorkloadResult {
    public var name: String
    public var budget: Double?
    public var rows: Int
    public var raw: Timings
    public var cairn: Timings
    /// The peak resident memory of the process during the raw C and the
    /// Cairn runs, in bytes (nil when the system does not tell).
    public var rawPeakMemory: Int?
    public var cairnPeakMemory: Int?

    /// Cairn's median over raw C's median.
    public var ratio: Double { cairn.median / raw.median }

    public var isOverBudget: Bool {
        budget.map { ratio > $0 } ?? false
    }
}

/// Runs workloads and reports their results.
public final class BenchmarkRunner {
    let title: String
    let options: BenchmarkOptions
    private let isTerminal = isatty(STDERR_FILENO) != 0

    public init(title: String, options: BenchmarkOptions) {
        self.title = title
        self.options = options
    }

    /// Runs the workloads, prints the table, writes the requested files, and
    /// exits with a failure if a checksum differs or, with `--check`, if a
    /// workload is over its budget.
    public func run(_ workloads: [Workload]) -> Never {
        let selected = workloads.filter { workload in
            options.filter.map { workload.name.localizedCaseInsensitiveContains($0) } ?? true
        }
        if options.instructions {
            runForInstructionCount(selected.filter { $0.budget != nil && $0.countsInstructions })
        }
        var results: [WorkloadResult] = []
        do {
            for workload in selected {
                let result = try measure(workload)
                results.append(result)
                if !isTerminal {
                    // Logs show the progress of long runs.
                    print("\(title) — \(result.name): ratio \(format(result.ratio))"
                        + (result.budget.map { " (budget \(format($0)))" } ?? ""))
                    fflush(nil)
                }
            }
        } catch {
            progress(nil)
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
        progress(nil)
        printTable(results)
        do {
            if let path = options.jsonPath {
                try writeJSON(results, to: path)
            }
            if let path = options.chartPath {
                try writeChart(results, to: path)
            }
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
        if options.check {
            let over = results.filter(\.isOverBudget)
            if !over.isEmpty {
                print("over budget: " + over.map { "\($0.name) (\(format($0.ratio)) > \(format($0.budget ?? 0)))" }.joined(separator: ", "))
                exit(1)
            }
            print("all workloads within budget")
        }
        exit(0)
    }

    /// The `--instructions` mode: after the warm-up of a workload, its raw C
    /// and its Cairn implementations run once each through
    /// ``countedRun(_:)``, and a line tells which workload it was and its
    /// units. callgrind zeroes its counters when the function is entered and
    /// writes them out when it returns (`--zero-before`, `--dump-after`), so
    /// the n-th dump holds the instructions of the n-th counted run, in every
    /// thread.
    private func runForInstructionCount(_ workloads: [Workload]) -> Never {
        do {
            for workload in workloads {
                let expected = try workload.checksum(workload.raw())
                guard try workload.checksum(workload.cairn()) == expected else {
                    throw BenchmarkError("\(workload.name): checksum mismatch")
                }
                let raw = try countedRun(workload.raw)
                let cairn = try countedRun(workload.cairn)
                guard try workload.checksum(raw) == expected, try workload.checksum(cairn) == expected else {
                    throw BenchmarkError("\(workload.name): checksum changed")
                }
                print("counted\t\(workload.name)\t\(workload.units ?? options.rows)\t\(workload.budget ?? 0)")
            }
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
        exit(0)
    }

    private func measure(_ workload: Workload) throws -> WorkloadResult {
        // Warm-up, and the checksums that both implementations must agree on.
        progress("\(workload.name): warm-up")
        let expected = try workload.checksum(workload.raw())
        let actual = try workload.checksum(workload.cairn())
        guard expected == actual else {
            throw BenchmarkError("\(workload.name): checksum mismatch: raw C \(expected), Cairn \(actual)")
        }
        var rawSamples: [Double] = []
        var cairnSamples: [Double] = []
        var rawPeak: Int?
        var cairnPeak: Int?
        for iteration in 1...options.iterations {
            progress("\(workload.name): iteration \(iteration)/\(options.iterations)")
            PeakMemory.reset()
            rawSamples.append(try time(workload.raw, checksum: workload.checksum, expecting: expected, name: workload.name))
            rawPeak = PeakMemory.maximum(rawPeak, PeakMemory.current())
            PeakMemory.reset()
            cairnSamples.append(try time(workload.cairn, checksum: workload.checksum, expecting: expected, name: workload.name))
            cairnPeak = PeakMemory.maximum(cairnPeak, PeakMemory.current())
        }
        return WorkloadResult(
            name: workload.name, budget: workload.budget, rows: workload.units ?? options.rows,
            raw: Timings(rawSamples), cairn: Timings(cairnSamples),
            rawPeakMemory: rawPeak, cairnPeakMemory: cairnPeak)
    }

    private func time(
        _ body: () throws -> Int, checksum: (Int) throws -> Int,
        expecting expected: Int, name: String) throws -> Double
    {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try body()
        let end = DispatchTime.now().uptimeNanoseconds
        let checksum = try checksum(result)
        guard checksum == expected else {
            throw BenchmarkError("\(name): checksum changed: \(checksum) instead of \(expected)")
        }
        return Double(end - start) / 1e9
    }

    private func progress(_ message: String?) {
        guard isTerminal else { return }
        if let message {
            FileHandle.standardError.write(Data("\r\u{1B}[K\(title) — \(message)".utf8))
        } else {
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        }
    }

    private func printTable(_ results: [WorkloadResult]) {
        print("\(title): \(options.rows) rows, \(options.iterations) iterations, medians in seconds")
        let header = [
            "workload", "raw C min/med/max", "Cairn min/med/max", "Cairn units/s", "ratio", "budget",
            "peak MB raw/Cairn",
        ]
        var lines = [header]
        for result in results {
            lines.append([
                result.name,
                "\(format(result.raw.min, 4))/\(format(result.raw.median, 4))/\(format(result.raw.max, 4))",
                "\(format(result.cairn.min, 4))/\(format(result.cairn.median, 4))/\(format(result.cairn.max, 4))",
                String(Int(Double(result.rows) / result.cairn.median)),
                format(result.ratio),
                result.budget.map { (result.isOverBudget ? "> " : "≤ ") + format($0) } ?? "-",
                "\(megabytes(result.rawPeakMemory))/\(megabytes(result.cairnPeakMemory))",
            ])
        }
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        for line in lines {
            print(line.enumerated().map { index, cell in
                cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  "))
        }
    }

    private func writeJSON(_ results: [WorkloadResult], to path: String) throws {
        struct Entry: Codable {
            var workload: String
            var library: String
            var units: Int
            var min: Double
            var median: Double
            var max: Double
            var unitsPerSecond: Double
            var ratio: Double
            var budget: Double?
            var peakMemoryBytes: Int?
        }
        struct Context: Codable {
            var benchmark: String
            var rows: Int
            var iterations: Int
            var sqliteVersion: String
            var cairnRevision: String?
            var date: String
            var processorCount: Int
        }
        struct Report: Codable {
            var context: Context
            var results: [Entry]
        }
        let entries = results.flatMap { result in [
            Entry(workload: result.name, library: "raw C", units: result.rows, min: result.raw.min,
                  median: result.raw.median, max: result.raw.max,
                  unitsPerSecond: Double(result.rows) / result.raw.median, ratio: 1, budget: nil,
                  peakMemoryBytes: result.rawPeakMemory),
            Entry(workload: result.name, library: "Cairn", units: result.rows, min: result.cairn.min,
                  median: result.cairn.median, max: result.cairn.max,
                  unitsPerSecond: Double(result.rows) / result.cairn.median,
                  ratio: result.ratio, budget: result.budget, peakMemoryBytes: result.cairnPeakMemory),
        ] }
        let context = Context(
            benchmark: title, rows: options.rows, iterations: options.iterations,
            sqliteVersion: String(cString: sqlite3_libversion()),
            cairnRevision: gitRevision(),
            date: ISO8601DateFormatter().string(from: Date()),
            processorCount: ProcessInfo.processInfo.activeProcessorCount)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(Report(context: context, results: entries)).write(to: URL(fileURLWithPath: path))
    }

    private func writeChart(_ results: [WorkloadResult], to path: String) throws {
        try svgChart(title: title, results: results).write(toFile: path, atomically: true, encoding: .utf8)
    }
}

/// Runs `body`: the function whose instructions callgrind counts in the
/// `--instructions` mode. It has a fixed symbol name for callgrind's
/// options, is never inlined, and is not optimized, so that the optimizer
/// cannot clone it under another name.
@inline(never) @_optimize(none) @_silgen_name("cairn_benchmark_counted_run")
public func countedRun(_ body: () throws -> Int) rethrows -> Int {
    try body()
}

/// An SVG bar chart of the ratios, with the budgets as marks.
func svgChart(title: String, results: [WorkloadResult]) -> String {
    let barHeight = 26.0, gap = 10.0, left = 230.0, width = 420.0, top = 50.0
    let maximum = max(2.0, (results.map { max($0.ratio, $0.budget ?? 0) }.max() ?? 1) * 1.1)
    let height = top + Double(results.count) * (barHeight + gap) + 40
    func x(_ ratio: Double) -> Double { left + ratio / maximum * width }
    func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
    var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(left + width + 80))" height="\(Int(height))" font-family="sans-serif" font-size="13">
        <rect width="100%" height="100%" fill="white"/>
        <text x="10" y="24" font-size="16" font-weight="bold">\(escape(title)): Cairn time / raw C time (lower is better)</text>
        <line x1="\(x(1))" y1="\(top - 8)" x2="\(x(1))" y2="\(height - 30)" stroke="#888" stroke-dasharray="4 3"/>
        <text x="\(x(1) - 8)" y="\(height - 14)" fill="#555">1.0</text>

        """
    for (index, result) in results.enumerated() {
        let y = top + Double(index) * (barHeight + gap)
        // Red over budget, blue within, grey without a budget.
        let color = result.budget == nil ? "#9a9a9a" : (result.isOverBudget ? "#d9534f" : "#4a90d9")
        // The label goes after the bar and after the budget mark, so that
        // the mark never crosses it.
        let labelX = max(x(result.ratio), result.budget.map(x) ?? 0) + 6
        svg += """
            <text x="\(left - 8)" y="\(y + barHeight * 0.7)" text-anchor="end">\(escape(result.name))</text>
            <rect x="\(left)" y="\(y)" width="\(max(1, x(result.ratio) - left))" height="\(barHeight)" fill="\(color)"/>
            <text x="\(labelX)" y="\(y + barHeight * 0.7)">\(format(result.ratio))</text>

            """
        if let budget = result.budget {
            svg += """
                <line x1="\(x(budget))" y1="\(y - 3)" x2="\(x(budget))" y2="\(y + barHeight + 3)" stroke="black" stroke-width="2"/>

                """
        }
    }
    svg += "<text x=\"10\" y=\"\(height - 14)\" fill=\"#555\">black marks: budgets; grey bars: no budget</text>\n</svg>\n"
    return svg
}

public func format(_ value: Double, _ digits: Int = 2) -> String {
    String(format: "%.\(digits)f", value)
}

/// Bytes in megabytes, or "?" when unknown.
public func megabytes(_ bytes: Int?) -> String {
    bytes.map { String(format: "%.0f", Double($0) / 1_048_576) } ?? "?"
}

/// The git revision of the working directory, if it is a checkout.
func gitRevision() -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "rev-parse", "--short", "HEAD"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do {
        try process.run()
        process.waitUntilExit()
    } catch {
        return nil
    }
    guard process.terminationStatus == 0 else { return nil }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let revision = output.trimmingCharacters(in: .whitespacesAndNewlines)
    return revision.isEmpty ? nil : revision
}

/// The peak resident memory of the process.
///
/// On Linux, the peak (`VmHWM` of `/proc/self/status`) is reset before each
/// run by writing 5 to `/proc/self/clear_refs`, so that each run reports its
/// own peak. Elsewhere, the peak of the process so far (`ru_maxrss`).
public enum PeakMemory {
    public static func reset() {
        #if os(Linux)
        if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
            handle.write(Data("5".utf8))
            try? handle.close()
        }
        #endif
    }

    public static func current() -> Int? {
        #if os(Linux)
        return processStatusBytes("VmHWM")
        #else
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
        return Int(usage.ru_maxrss)  // bytes on Apple systems
        #endif
    }

    /// The resident memory of the process now (`VmRSS`), on Linux; nil
    /// elsewhere.
    public static func resident() -> Int? {
        #if os(Linux)
        return processStatusBytes("VmRSS")
        #else
        return nil
        #endif
    }

    /// A memory figure of `/proc/self/status`, in bytes: a line such as
    /// "VmHWM:     12345 kB".
    private static func processStatusBytes(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
        }
        return nil
    }

    public static func maximum(_ a: Int?, _ b: Int?) -> Int? {
        switch (a, b) {
        case let (a?, b?): max(a, b)
        case let (a?, nil): a
        case let (nil, b): b
        }
    }
}

/// A value shared by threads, behind a lock.
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    public init(_ value: Value) { self.value = value }

    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// An error that stops a benchmark.
public struct BenchmarkError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A path in the temporary directory.
public func temporaryPath(_ name: String) -> String {
    (NSTemporaryDirectory() as NSString).appendingPathComponent(name)
}
