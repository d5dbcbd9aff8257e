import Foundation

// The `--curve` mode of the fetch and insert benchmarks: the cost per row of
// a few workloads as the number of rows grows, from 10^4 to 10^7 by
// default, against raw C at each size, with the peak memory of each run.
// It answers "do costs stay flat as tables grow?", which the fixed sizes of
// the other workloads cannot.

/// A workload of the curve: the same work written against the raw C API
/// and against Cairn, for a number of rows. Both return a checksum of what
/// they consumed or wrote.
public struct CurveWorkload {
    public var name: String
    public var raw: (_ rows: Int) throws -> Int
    public var cairn: (_ rows: Int) throws -> Int

    /// Creates a workload.
    public init(_ name: String, raw: @escaping (_ rows: Int) throws -> Int, cairn: @escaping (_ rows: Int) throws -> Int) {
        self.name = name
        self.raw = raw
        self.cairn = cairn
    }
}

/// The options of the curve mode: `--curve [--curve-sizes 10000,100000]
/// [--chart PATH]`.
public struct CurveOptions {
    /// The numbers of rows.
    public var sizes = [10_000, 100_000, 1_000_000, 10_000_000]
    /// Where to write an SVG plot of the costs per row.
    public var chartPath: String?

    /// The options of the command line, or nil when it has no `--curve`.
    public init?(arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        guard arguments.contains("--curve") else { return nil }
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--curve":
                break
            case "--curve-sizes":
                let sizes = iterator.next()?.split(separator: ",").compactMap { Int($0) } ?? []
                guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }) else { BenchmarkOptions.usage("--curve-sizes takes positive numbers, separated by commas") }
                self.sizes = sizes
            case "--chart":
                guard let path = iterator.next() else { BenchmarkOptions.usage("missing value after --chart") }
                chartPath = path
            default:
                BenchmarkOptions.usage("unknown option of --curve: \(argument) (--curve [--curve-sizes N,N,...] [--chart PATH])")
            }
        }
    }
}

/// One point of the curve.
struct CurvePoint {
    var workload: String
    var rows: Int
    var rawSeconds: Double
    var cairnSeconds: Double
    var rawPeakMemory: Int?
    var cairnPeakMemory: Int?

    var rawNanosecondsPerRow: Double { rawSeconds * 1e9 / Double(rows) }
    var cairnNanosecondsPerRow: Double { cairnSeconds * 1e9 / Double(rows) }
    var ratio: Double { cairnSeconds / rawSeconds }
}

/// Runs the workloads at each size, prints a table and a summary of how the
/// costs move from the smallest size to the largest, writes the plot if
/// asked, and exits (1 if a checksum differs).
///
/// - Parameters:
///   - prepare: Called before the workloads of each size (to build the
///     table that fetches read, for instance).
public func runCurve(
    title: String,
    options: CurveOptions,
    prepare: (_ rows: Int) throws -> Void = { _ in },
    workloads: [CurveWorkload]) -> Never
{
    var points: [CurvePoint] = []
    do {
        for rows in options.sizes {
            try prepare(rows)
            for workload in workloads {
                // Small sizes are noisy: the best of three runs. Large ones
                // run once (ten million rows take seconds).
                let runs = rows <= 100_000 ? 3 : 1
                if rows <= 100_000 {
                    // A warm-up: the first run of a size pays for cold
                    // caches and first allocations.
                    _ = try workload.raw(rows)
                    _ = try workload.cairn(rows)
                }
                var point = CurvePoint(workload: workload.name, rows: rows, rawSeconds: .infinity, cairnSeconds: .infinity)
                for _ in 0..<runs {
                    let (rawChecksum, rawSeconds, rawPeak) = try measureOnce { try workload.raw(rows) }
                    let (cairnChecksum, cairnSeconds, cairnPeak) = try measureOnce { try workload.cairn(rows) }
                    guard rawChecksum == cairnChecksum else {
                        throw BenchmarkError("\(workload.name), \(rows) rows: checksum mismatch (raw C \(rawChecksum), Cairn \(cairnChecksum))")
                    }
                    point.rawSeconds = min(point.rawSeconds, rawSeconds)
                    point.cairnSeconds = min(point.cairnSeconds, cairnSeconds)
                    point.rawPeakMemory = PeakMemory.maximum(point.rawPeakMemory, rawPeak)
                    point.cairnPeakMemory = PeakMemory.maximum(point.cairnPeakMemory, cairnPeak)
                }
                points.append(point)
                FileHandle.standardError.write(Data("\(workload.name), \(rows) rows: ratio \(format(point.ratio))\n".utf8))
            }
        }
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
    }
    printCurve(title: title, points: points, workloads: workloads.map(\.name))
    if let chartPath = options.chartPath {
        do {
            try curveChart(title: title, points: points, workloads: workloads.map(\.name))
                .write(toFile: chartPath, atomically: true, encoding: .utf8)
        } catch {
            FileHandle.standardError.write(Data("error: cannot write \(chartPath): \(error)\n".utf8))
            exit(1)
        }
    }
    exit(0)
}

/// Runs `body` once: its result, its time in seconds, and the peak memory
/// of the process during the run.
private func measureOnce(_ body: () throws -> Int) throws -> (Int, Double, Int?) {
    PeakMemory.reset()
    let start = DispatchTime.now()
    let result = try body()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    return (result, seconds, PeakMemory.current())
}

private func printCurve(title: String, points: [CurvePoint], workloads: [String]) {
    print("\(title): cost per row as the number of rows grows")
    print("workload                        rows  raw C ns/row  Cairn ns/row  ratio  peak MB raw/Cairn")
    for point in points {
        print(point.workload.padding(toLength: 24, withPad: " ", startingAt: 0)
              + String(format: " %12d  %12.1f  %12.1f  %5.2f  ",
                       point.rows, point.rawNanosecondsPerRow, point.cairnNanosecondsPerRow, point.ratio)
              + "\(megabytes(point.rawPeakMemory))/\(megabytes(point.cairnPeakMemory))")
    }
    print("from the smallest size to the largest (flat: the ratio to raw C within 15%; both sides pay fixed costs at small sizes):")
    for workload in workloads {
        let curve = points.filter { $0.workload == workload }
        guard let first = curve.first, let last = curve.last, curve.count > 1 else { continue }
        let costChange = last.cairnNanosecondsPerRow / first.cairnNanosecondsPerRow - 1
        let rawChange = last.rawNanosecondsPerRow / first.rawNanosecondsPerRow - 1
        print("  \(workload): "
            + String(format: "Cairn per row %+.0f%% (raw C %+.0f%%), ratio %.2f -> %.2f, ",
                     costChange * 100, rawChange * 100, first.ratio, last.ratio)
            + (abs(last.ratio / first.ratio - 1) <= 0.15 ? "flat" : "not flat")
            + ", peak MB \(megabytes(first.cairnPeakMemory)) -> \(megabytes(last.cairnPeakMemory))")
    }
}

/// An SVG plot of the costs per row: one panel per workload, the number of
/// rows on a logarithmic x axis, raw C dashed and Cairn solid.
func curveChart(title: String, points: [CurvePoint], workloads: [String]) -> String {
    let panelWidth = 360.0, panelHeight = 220.0, margin = 50.0
    let width = margin + Double(workloads.count) * (panelWidth + margin)
    let height = panelHeight + 2 * margin + 30
    var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="11">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(margin)" y="20" font-size="14">\(escapeXML(title)): ns per row (raw C dashed, Cairn solid)</text>

        """
    for (panel, workload) in workloads.enumerated() {
        let curve = points.filter { $0.workload == workload }
        guard !curve.isEmpty else { continue }
        let left = margin + Double(panel) * (panelWidth + margin)
        let top = margin
        let logs = curve.map { log10(Double($0.rows)) }
        let minLog = logs.min()!, maxLog = max(logs.max()!, logs.min()! + 1)
        let maxCost = curve.flatMap { [$0.rawNanosecondsPerRow, $0.cairnNanosecondsPerRow] }.max()! * 1.15
        func x(_ rows: Int) -> Double { left + (log10(Double(rows)) - minLog) / (maxLog - minLog) * panelWidth }
        func y(_ cost: Double) -> Double { top + panelHeight - cost / maxCost * panelHeight }
        svg += """
            <text x="\(left)" y="\(top - 8)" font-size="12">\(escapeXML(workload))</text>
            <line x1="\(left)" y1="\(top + panelHeight)" x2="\(left + panelWidth)" y2="\(top + panelHeight)" stroke="black"/>
            <line x1="\(left)" y1="\(top)" x2="\(left)" y2="\(top + panelHeight)" stroke="black"/>
            <text x="\(left - 4)" y="\(top + 4)" text-anchor="end">\(Int(maxCost))</text>
            <text x="\(left - 4)" y="\(top + panelHeight)" text-anchor="end">0</text>

            """
        for point in curve {
            svg += """
                <text x="\(x(point.rows))" y="\(top + panelHeight + 16)" text-anchor="middle">\(point.rows)</text>

                """
        }
        let rawLine = curve.map { "\(x($0.rows)),\(y($0.rawNanosecondsPerRow))" }.joined(separator: " ")
        let cairnLine = curve.map { "\(x($0.rows)),\(y($0.cairnNanosecondsPerRow))" }.joined(separator: " ")
        svg += """
            <polyline points="\(rawLine)" fill="none" stroke="#888" stroke-width="2" stroke-dasharray="5,4"/>
            <polyline points="\(cairnLine)" fill="none" stroke="#1f5fa8" stroke-width="2"/>

            """
    }
    svg += "</svg>\n"
    return svg
}

private func escapeXML(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;")
        .replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;")
}
