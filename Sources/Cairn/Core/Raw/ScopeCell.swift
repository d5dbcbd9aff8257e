// Public, not `internal`: @inlinable code of this file calls the helpers. A
// public import is not re-exported to users (see CONTRIBUTING.md).
public import CairnSQLiteShims

/// Memory that tells whether a scope is still open: the callback of a
/// transaction hook. (Database accesses are `DatabaseAccess` objects, which
/// cursors and rows retain; the coders find their row or encoder through a
/// ``ThreadSlot``.)
///
/// A transaction event, which user code may keep after the callback that
/// made it returned, borrows SQLite's strings for the time of the callback,
/// and a strong reference to a scope object would cost atomic operations at
/// each change. It holds a ``ScopeToken`` instead: the address of a cell
/// and the generation the cell had when the event was made. The owner of
/// the cell changes the generation when the scope ends, and the event checks
/// its token before it reads anything else. An event whose scope ended
/// stops the program with a message that says what to do instead: it never
/// reads memory that may have been freed.
///
/// Cells are never freed. The owner of a cell gives it back to a pool when it
/// is deinitialized, with a new generation, and the pool hands it to the next
/// owner. A token is thus always the address of valid memory, and the token
/// of an ended scope never matches again: generations only grow (2^64 of them
/// do not wrap around).
///
/// The generation is read and written with relaxed atomic operations (plain
/// loads and stores on x86-64 and arm64), so that a value that was sent to
/// another thread reads it without a data race.
@usableFromInline
struct ScopeCell {
    /// The generation: one word of memory that is never freed.
    @usableFromInline let words: UnsafeMutablePointer<UInt64>

    private init(words: UnsafeMutablePointer<UInt64>) {
        self.words = words
    }

    /// Takes a cell from the pool (or allocates one), for an owner that
    /// calls ``release()`` exactly once, when it is deinitialized.
    static func make() -> ScopeCell {
        let words = scopeCellPool.withLock { $0.popLast() } ?? {
            let words = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
            words.initialize(to: 0)
            return words
        }()
        return ScopeCell(words: words)
    }

    /// Ends the current scope, and gives the cell back to the pool: the
    /// tokens of the cell no longer match.
    func release() {
        endScope()
        scopeCellPool.withLock { $0.append(words) }
    }

    /// The token of the current scope.
    @inlinable @inline(__always)
    var token: ScopeToken {
        ScopeToken(words: words, generation: _cairn_atomic_load_u64(words))
    }

    /// Ends the current scope: its tokens no longer match, and a new scope
    /// begins.
    @inline(__always)
    func endScope() {
        _cairn_atomic_store_u64(words, _cairn_atomic_load_u64(words) &+ 1)
    }
}

/// The scope a value was made in (see ``ScopeCell``): plain bits, which cost
/// nothing to copy.
@usableFromInline
struct ScopeToken {
    @usableFromInline let words: UnsafeMutablePointer<UInt64>
    @usableFromInline let generation: UInt64

    @inlinable
    init(words: UnsafeMutablePointer<UInt64>, generation: UInt64) {
        self.words = words
        self.generation = generation
    }

    /// Whether the scope is still open.
    @inlinable @inline(__always)
    var isCurrent: Bool {
        _cairn_atomic_load_u64(words) == generation
    }
}

/// The cells that no owner uses. They are never freed.
private let scopeCellPool = Locked<[UnsafeMutablePointer<UInt64>]>([])
