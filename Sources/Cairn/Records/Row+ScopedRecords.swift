// Decoding the records of joined requests from row scopes and prefetched
// rows, for records that implement `init(row:)`.

extension Row {
    /// Decodes the record of an included association, from the scope of
    /// its key (searched in the scopes of scopes too, see
    /// ``scopesTree``).
    ///
    /// ```swift
    /// // Book.including(required: Book.author)
    /// init(row: Row) throws {
    ///     book = try Book(row: row)
    ///     author = try row.decode(forKey: "author")
    /// }
    /// ```
    ///
    /// - Throws: A ``RowDecodingError`` when the row has no such scope, or
    ///   the record does not decode.
    @inlinable
    public func decode<Record: FetchableRecord>(_ type: Record.Type = Record.self, forKey key: String) throws -> Record {
        // Inlinable, so that the record type is known where it is called:
        // a generic call would look its metadata up for each row.
        try Record(row: _scope(forKey: key))
    }

    /// The scope of a key, searched in the scopes of scopes too.
    ///
    /// - Throws: A ``RowDecodingError`` when the row has no such scope.
    @usableFromInline
    func _scope(forKey key: String) throws -> Row {
        // The scope of a cursor row, made at the first step: found without
        // the search of the scopes tree (a direct scope comes first anyway).
        if let cached = cachedScope(named: key) { return cached }
        guard let scope = scopesTree[key] else {
            throw RowDecodingError.missingScope(key, columnName: key, row: self, scopes: scopesTree.names, prefetchedKeys: prefetchedRows.keys)
        }
        return scope
    }

    /// Decodes the record of an optional association: nil when the row has
    /// no such scope, or when its columns are all NULL.
    ///
    /// ```swift
    /// // Book.including(optional: Book.coverImage)
    /// coverImage = try row.decodeIfPresent(forKey: "coverImage")
    /// ```
    ///
    /// - Throws: A ``RowDecodingError`` when the record does not decode.
    @inlinable
    public func decodeIfPresent<Record: FetchableRecord>(_ type: Record.Type = Record.self, forKey key: String) throws -> Record? {
        guard let scope = _nonNullScope(forKey: key) else { return nil }
        return try Record(row: scope)
    }

    /// The scope of a key, searched in the scopes of scopes too, or nil
    /// when there is none, or when its columns are all NULL.
    @usableFromInline
    func _nonNullScope(forKey key: String) -> Row? {
        guard let scope = cachedScope(named: key) ?? scopesTree[key], scope.containsNonNullValue else { return nil }
        return scope
    }

    /// Decodes the records that `including(all:)` prefetched for a key.
    ///
    /// ```swift
    /// // Author.including(all: Author.books)
    /// books = try row.decode(forKey: "books")   // [Book]
    /// ```
    ///
    /// - Throws: A ``RowDecodingError`` when the row has no prefetched rows
    ///   for this key, or a record does not decode.
    @inlinable
    public func decode<Records: RangeReplaceableCollection>(
        _ type: Records.Type = Records.self,
        forKey key: String) throws -> Records
    where Records.Element: FetchableRecord
    {
        // Inlinable, for the reason given in decode(_:forKey:) above.
        let rows = try _prefetchedRows(forKey: key)
        var records = Records()
        records.reserveCapacity(rows.count)
        // The iterator makes the rows of prefetched values one at a time,
        // without an array of rows.
        var iterator = rows.makeRowIterator()
        while let row = iterator.next() {
            records.append(try Records.Element(row: row))
        }
        return records
    }

    /// Decodes the records that `including(all:)` prefetched for a key, as
    /// a set.
    ///
    /// - Throws: A ``RowDecodingError`` when the row has no prefetched rows
    ///   for this key, or a record does not decode.
    @inlinable
    public func decode<Record: FetchableRecord & Hashable>(
        _ type: Set<Record>.Type = Set<Record>.self,
        forKey key: String) throws -> Set<Record>
    {
        let rows = try _prefetchedRows(forKey: key)
        var records = Set<Record>(minimumCapacity: rows.count)
        var iterator = rows.makeRowIterator()
        while let row = iterator.next() {
            records.insert(try Record(row: row))
        }
        return records
    }

    /// The rows prefetched for a key, by the row or its nearest scope.
    ///
    /// - Throws: A ``RowDecodingError`` when there are none.
    @usableFromInline
    func _prefetchedRows(forKey key: String) throws -> PrefetchedRows {
        guard let rows = prefetchedRows._rows(forKey: key) else {
            throw RowDecodingError.missingScope(key, columnName: key, row: self, scopes: scopesTree.names, prefetchedKeys: prefetchedRows.keys)
        }
        return rows
    }

    /// The record of an included association (see
    /// ``decode(_:forKey:)-(Record.Type,String)``), or nil when the row has
    /// no such scope or its columns are all NULL.
    ///
    /// - Precondition: the record decodes (use ``decodeIfPresent(_:forKey:)``
    ///   for data you do not control).
    public subscript<Record: FetchableRecord>(_ key: String) -> Record? {
        do {
            return try decodeIfPresent(Record.self, forKey: key)
        } catch {
            stopProgram("could not decode \(Record.self) from the scope \"\(key)\": \(error)")
        }
    }

    /// The record of an included association.
    ///
    /// - Precondition: the row has the scope, and the record decodes (use
    ///   ``decode(_:forKey:)-(Record.Type,String)`` for data you do not
    ///   control).
    public subscript<Record: FetchableRecord>(_ key: String) -> Record {
        do {
            return try decode(Record.self, forKey: key)
        } catch {
            stopProgram("could not decode \(Record.self) from the scope \"\(key)\": \(error)")
        }
    }

    /// The prefetched records of a key.
    ///
    /// - Precondition: the row has prefetched rows for the key, and the
    ///   records decode.
    public subscript<Records: RangeReplaceableCollection>(_ key: String) -> Records where Records.Element: FetchableRecord {
        do {
            return try decode(Records.self, forKey: key)
        } catch {
            stopProgram("could not decode \(Records.self) from the prefetched rows \"\(key)\": \(error)")
        }
    }

    /// The prefetched records of a key, as a set.
    ///
    /// - Precondition: the row has prefetched rows for the key, and the
    ///   records decode.
    public subscript<Record: FetchableRecord & Hashable>(_ key: String) -> Set<Record> {
        do {
            return try decode(Set<Record>.self, forKey: key)
        } catch {
            stopProgram("could not decode a set of \(Record.self) from the prefetched rows \"\(key)\": \(error)")
        }
    }
}
