internal import CairnSQLiteShims

/// The columns that a `Decodable` record type reads from the rows of a
/// statement, in the order in which its `init(from:)` reads them.
///
/// A record type decodes the same keys in the same order at each row: the
/// plan remembers, for each read, the coding key and the index of its
/// column. The next row compares the key with the one of the plan, and
/// reads the column at once: no column name is built, compared, or looked
/// up. A key that does not match (a record that reads other keys for some
/// rows) is looked up by name, and replaces the entry of the plan.
///
/// Keys are compared by their bits, so the plan only serves coding key
/// types that are plain values of at most 8 bytes (such as the synthesized
/// `CodingKeys` enums): equal bits then mean equal keys (see `CodingKeyBits`
/// in `LayoutAssumptions.swift`).
///
/// A row keeps the plans of the keyed containers that the record decoder
/// caches on it, in ``RowState/decodingPlans``; a container names its plan
/// by index.
struct DecodingPlan {
    /// A key, by its bits, and the index of its column.
    struct Entry {
        var keyBits: UInt64
        var columnIndex: Int
    }

    /// The reads of a record, in order.
    private var entries: [Entry] = []

    /// The column index of the read at `position`, if the plan has this
    /// key there.
    @inline(__always)
    func columnIndex(at position: Int, keyBits: UInt64) -> Int? {
        entries.withUnsafeBufferPointer { entries -> Int? in
            guard position < entries.count, entries[position].keyBits == keyBits else { return nil }
            return entries[position].columnIndex
        }
    }

    /// Records the column index of a key at `position`.
    mutating func record(at position: Int, keyBits: UInt64, columnIndex: Int) {
        let entry = Entry(keyBits: keyBits, columnIndex: columnIndex)
        if position < entries.count {
            entries[position] = entry
        } else {
            entries.append(entry)
        }
    }
}

extension Row {
    /// Adds an empty column plan to the row, and returns its index in
    /// ``RowState/decodingPlans``.
    func addDecodingPlan() -> Int {
        state.decodingPlans.append(DecodingPlan())
        return state.decodingPlans.count - 1
    }

    /// Starts the reads of a new record (see
    /// ``RowState/decodingPlanPosition``).
    @inline(__always)
    func rewindDecodingPlan() {
        state.decodingPlanPosition = 0
    }

    /// The column index of the next read of the plan at `plan`, if it has
    /// this key at the current position; the position then moves to the
    /// next read.
    @inline(__always)
    func plannedColumnIndex(plan: Int, keyBits: UInt64) -> Int? {
        let position = state.decodingPlanPosition
        guard let index = state.decodingPlans[plan].columnIndex(at: position, keyBits: keyBits) else { return nil }
        state.decodingPlanPosition = position &+ 1
        return index
    }

    /// Records the column index of a key at the current position of the
    /// plan at `plan`, and moves to the next read.
    func recordPlannedColumn(plan: Int, keyBits: UInt64, columnIndex: Int) {
        let position = state.decodingPlanPosition
        state.decodingPlans[plan].record(at: position, keyBits: keyBits, columnIndex: columnIndex)
        state.decodingPlanPosition = position + 1
    }
}

// MARK: - The decoding of a record

extension Row {
    /// The slot of the row whose record is being decoded on the current
    /// thread (see ``_beginDecoding()``).
    @inline(__always)
    static var decodingSlot: ThreadSlot<Row> { ThreadSlot(.decodingRow) }

    /// What ``_beginDecoding()`` changed, for ``_endDecoding(_:)``.
    @usableFromInline
    struct _DecodingScope {
        /// What the decoding slot of the thread held.
        let previousRow: UnsafeMutableRawPointer?
        /// The position in the plan of an enclosing decoding of the row.
        let planPosition: Int
    }

    /// Called before a record is decoded from the row: puts the row in the
    /// decoding slot of the current thread (see ``ThreadSlot``), where the
    /// keyed containers of the record decoder find it. The caller calls
    /// ``_endDecoding(_:)`` with `defer`.
    ///
    /// - Precondition: a statement row is used inside the access that
    ///   fetched it, on its thread.
    @usableFromInline
    func _beginDecoding() -> _DecodingScope {
        var planPosition = 0
        if statementAccess != nil {
            // Only the thread of the row's access touches the state of a
            // statement row.
            _checkStatementAccess()
            state.decodingDepth &+= 1
            planPosition = state.decodingPlanPosition
        }
        return _DecodingScope(previousRow: Row.decodingSlot.enter(self), planPosition: planPosition)
    }

    /// Called after a record was decoded from the row.
    @usableFromInline
    func _endDecoding(_ scope: _DecodingScope) {
        Row.decodingSlot.leave(self, restoring: scope.previousRow)
        if statementAccess != nil {
            state.decodingDepth &-= 1
            state.decodingPlanPosition = scope.planPosition
        }
    }

    /// A serial number of the row, for the keyed containers that the record
    /// decoder caches on it (see ``ThreadSlot``), made on first use.
    ///
    /// - Precondition: only the thread of the row's access calls it (rows
    ///   that cache decoding are statement rows).
    var decodingSerial: UInt64 {
        if state.decodingSerial == 0 {
            state.decodingSerial = CodingSerial.next()
        }
        return state.decodingSerial
    }
}
