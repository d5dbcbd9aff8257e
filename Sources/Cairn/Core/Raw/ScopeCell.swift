// Public, not `internal`: @inlinable code of this file calls the helpers. A
// public import is not re-exported to users (see CONTRIBUTING.md).
public import CairnSQLiteShims

/// Memory that tells whether a scope is still open: a hook callback, the
/// decoding of a record, the encoding of a record. (Database accesses are
/// `DatabaseAccess` objects, which cursors and rows retain.)
///
/// Some values that user code may keep after their scope ended (a
/// transaction event, a keyed coding container) cannot hold a strong
/// reference to what they read: it would cost atomic operations where speed
/// matters, or make retain cycles. They hold a ``ScopeToken`` instead: the
/// address of a cell and the generation the cell had when the value was
/// made. The owner of the cell changes the generation when the scope ends,
/// and the value checks its token before it reads anything else. A value
/// whose scope ended throws, or stops the program with a message that says
/// what to do instead: it never reads memory that may have been freed.
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
    /// Two words: the generation, then the address of the object of the
    /// scope (unretained; zero when there is none).
    @usableFromInline let words: UnsafeMutablePointer<UInt64>

    private init(words: UnsafeMutablePointer<UInt64>) {
        self.words = words
    }

    /// Takes a cell from the pool (or allocates one), for an owner that
    /// calls ``release()`` exactly once, when it is deinitialized.
    ///
    /// - Parameter object: The object that the tokens of the cell may reach
    ///   while their scope is open (see ``object``). The owner guarantees
    ///   that it is alive until it ends the scope or releases the cell.
    static func make(object: AnyObject? = nil) -> ScopeCell {
        let words = scopeCellPool.withLock { $0.popLast() } ?? {
            let words = UnsafeMutablePointer<UInt64>.allocate(capacity: 2)
            words.initialize(repeating: 0, count: 2)
            return words
        }()
        let address = object.map { UInt64(UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque())) } ?? 0
        _cairn_atomic_store_u64(words + 1, address)
        return ScopeCell(words: words)
    }

    /// Ends the current scope, and gives the cell back to the pool: the
    /// tokens of the cell no longer match.
    func release() {
        endScope()
        _cairn_atomic_store_u64(words + 1, 0)
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

    /// The object of the cell, when the scope is still open: it is alive
    /// until the scope ends. Nil when the scope ended.
    ///
    /// Only the thread of the scope may use the object; this is the
    /// caller's invariant, documented where tokens are read.
    @inline(__always)
    func objectIfCurrent<T: AnyObject>(as type: T.Type) -> Unmanaged<T>? {
        guard isCurrent, let pointer = UnsafeRawPointer(bitPattern: UInt(_cairn_atomic_load_u64(words + 1))) else {
            return nil
        }
        return Unmanaged<T>.fromOpaque(pointer)
    }
}

/// The cells that no owner uses. They are never freed.
private let scopeCellPool = Locked<[UnsafeMutablePointer<UInt64>]>([])
