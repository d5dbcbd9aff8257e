/// An SQLite result code: a primary code such as `SQLITE_CONSTRAINT`, or an
/// extended code such as `SQLITE_CONSTRAINT_FOREIGNKEY` that refines it.
///
/// Codes keep their SQLite spellings. A primary code matches all of its
/// extended codes in pattern matching, so a `switch` or `catch` on
/// `.SQLITE_CONSTRAINT` also catches `SQLITE_CONSTRAINT_UNIQUE`:
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
/// } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
///     // A player with id 1 already exists.
/// } catch DatabaseError.SQLITE_CONSTRAINT {
///     // Any other constraint violation.
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw SQLite result code.
    public let rawValue: CInt

    /// Creates a result code from a raw SQLite result code.
    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The primary result code: the low 8 bits of the code.
    ///
    /// `ResultCode.SQLITE_CONSTRAINT_UNIQUE.primaryResultCode` is
    /// `.SQLITE_CONSTRAINT`. A primary code is its own primary code.
    public var primaryResultCode: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    /// Whether this is a primary result code (not an extended one).
    var isPrimary: Bool { self == primaryResultCode }

    /// A textual description: the English explanation SQLite gives for the
    /// code, with the code number, for example `"19 (constraint failed)"`.
    ///
    /// The corresponding C function is `sqlite3_errstr`.
    public var description: String {
        "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))"
    }

    /// Returns whether `code` is `pattern`, or, when `pattern` is a primary
    /// code, whether `code` is one of its extended codes.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        if pattern.isPrimary {
            return pattern == code.primaryResultCode
        } else {
            return pattern == code
        }
    }

    // MARK: Primary result codes

    /// `SQLITE_OK` (0). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ok>
    public static let SQLITE_OK = ResultCode(rawValue: 0)
    /// `SQLITE_ERROR` (1). Related SQLite documentation: <https://www.sqlite.org/rescode.html#error>
    public static let SQLITE_ERROR = ResultCode(rawValue: 1)
    /// `SQLITE_INTERNAL` (2). Related SQLite documentation: <https://www.sqlite.org/rescode.html#internal>
    public static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
    /// `SQLITE_PERM` (3). Related SQLite documentation: <https://www.sqlite.org/rescode.html#perm>
    public static let SQLITE_PERM = ResultCode(rawValue: 3)
    /// `SQLITE_ABORT` (4). Related SQLite documentation: <https://www.sqlite.org/rescode.html#abort>
    public static let SQLITE_ABORT = ResultCode(rawValue: 4)
    /// `SQLITE_BUSY` (5). Related SQLite documentation: <https://www.sqlite.org/rescode.html#busy>
    public static let SQLITE_BUSY = ResultCode(rawValue: 5)
    /// `SQLITE_LOCKED` (6). Related SQLite documentation: <https://www.sqlite.org/rescode.html#locked>
    public static let SQLITE_LOCKED = ResultCode(rawValue: 6)
    /// `SQLITE_NOMEM` (7). Related SQLite documentation: <https://www.sqlite.org/rescode.html#nomem>
    public static let SQLITE_NOMEM = ResultCode(rawValue: 7)
    /// `SQLITE_READONLY` (8). Related SQLite documentation: <https://www.sqlite.org/rescode.html#readonly>
    public static let SQLITE_READONLY = ResultCode(rawValue: 8)
    /// `SQLITE_INTERRUPT` (9). Related SQLite documentation: <https://www.sqlite.org/rescode.html#interrupt>
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
    /// `SQLITE_IOERR` (10). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr>
    public static let SQLITE_IOERR = ResultCode(rawValue: 10)
    /// `SQLITE_CORRUPT` (11). Related SQLite documentation: <https://www.sqlite.org/rescode.html#corrupt>
    public static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
    /// `SQLITE_NOTFOUND` (12). Related SQLite documentation: <https://www.sqlite.org/rescode.html#notfound>
    public static let SQLITE_NOTFOUND = ResultCode(rawValue: 12)
    /// `SQLITE_FULL` (13). Related SQLite documentation: <https://www.sqlite.org/rescode.html#full>
    public static let SQLITE_FULL = ResultCode(rawValue: 13)
    /// `SQLITE_CANTOPEN` (14). Related SQLite documentation: <https://www.sqlite.org/rescode.html#cantopen>
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
    /// `SQLITE_PROTOCOL` (15). Related SQLite documentation: <https://www.sqlite.org/rescode.html#protocol>
    public static let SQLITE_PROTOCOL = ResultCode(rawValue: 15)
    /// `SQLITE_EMPTY` (16). Related SQLite documentation: <https://www.sqlite.org/rescode.html#empty>
    public static let SQLITE_EMPTY = ResultCode(rawValue: 16)
    /// `SQLITE_SCHEMA` (17). Related SQLite documentation: <https://www.sqlite.org/rescode.html#schema>
    public static let SQLITE_SCHEMA = ResultCode(rawValue: 17)
    /// `SQLITE_TOOBIG` (18). Related SQLite documentation: <https://www.sqlite.org/rescode.html#toobig>
    public static let SQLITE_TOOBIG = ResultCode(rawValue: 18)
    /// `SQLITE_CONSTRAINT` (19). Related SQLite documentation: <https://www.sqlite.org/rescode.html#constraint>
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
    /// `SQLITE_MISMATCH` (20). Related SQLite documentation: <https://www.sqlite.org/rescode.html#mismatch>
    public static let SQLITE_MISMATCH = ResultCode(rawValue: 20)
    /// `SQLITE_MISUSE` (21). Related SQLite documentation: <https://www.sqlite.org/rescode.html#misuse>
    public static let SQLITE_MISUSE = ResultCode(rawValue: 21)
    /// `SQLITE_NOLFS` (22). Related SQLite documentation: <https://www.sqlite.org/rescode.html#nolfs>
    public static let SQLITE_NOLFS = ResultCode(rawValue: 22)
    /// `SQLITE_AUTH` (23). Related SQLite documentation: <https://www.sqlite.org/rescode.html#auth>
    public static let SQLITE_AUTH = ResultCode(rawValue: 23)
    /// `SQLITE_FORMAT` (24). Related SQLite documentation: <https://www.sqlite.org/rescode.html#format>
    public static let SQLITE_FORMAT = ResultCode(rawValue: 24)
    /// `SQLITE_RANGE` (25). Related SQLite documentation: <https://www.sqlite.org/rescode.html#range>
    public static let SQLITE_RANGE = ResultCode(rawValue: 25)
    /// `SQLITE_NOTADB` (26). Related SQLite documentation: <https://www.sqlite.org/rescode.html#notadb>
    public static let SQLITE_NOTADB = ResultCode(rawValue: 26)
    /// `SQLITE_NOTICE` (27). Related SQLite documentation: <https://www.sqlite.org/rescode.html#notice>
    public static let SQLITE_NOTICE = ResultCode(rawValue: 27)
    /// `SQLITE_WARNING` (28). Related SQLite documentation: <https://www.sqlite.org/rescode.html#warning>
    public static let SQLITE_WARNING = ResultCode(rawValue: 28)
    /// `SQLITE_ROW` (100). Related SQLite documentation: <https://www.sqlite.org/rescode.html#row>
    public static let SQLITE_ROW = ResultCode(rawValue: 100)
    /// `SQLITE_DONE` (101). Related SQLite documentation: <https://www.sqlite.org/rescode.html#done>
    public static let SQLITE_DONE = ResultCode(rawValue: 101)

    // MARK: Extended result codes

    /// `SQLITE_ERROR_MISSING_COLLSEQ` (257). Related SQLite documentation: <https://www.sqlite.org/rescode.html#error_missing_collseq>
    public static let SQLITE_ERROR_MISSING_COLLSEQ = ResultCode(rawValue: 257)
    /// `SQLITE_ERROR_RETRY` (513). Related SQLite documentation: <https://www.sqlite.org/rescode.html#error_retry>
    public static let SQLITE_ERROR_RETRY = ResultCode(rawValue: 513)
    /// `SQLITE_ERROR_SNAPSHOT` (769). Related SQLite documentation: <https://www.sqlite.org/rescode.html#error_snapshot>
    public static let SQLITE_ERROR_SNAPSHOT = ResultCode(rawValue: 769)
    /// `SQLITE_IOERR_READ` (266). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_read>
    public static let SQLITE_IOERR_READ = ResultCode(rawValue: 266)
    /// `SQLITE_IOERR_SHORT_READ` (522). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_short_read>
    public static let SQLITE_IOERR_SHORT_READ = ResultCode(rawValue: 522)
    /// `SQLITE_IOERR_WRITE` (778). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_write>
    public static let SQLITE_IOERR_WRITE = ResultCode(rawValue: 778)
    /// `SQLITE_IOERR_FSYNC` (1034). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_fsync>
    public static let SQLITE_IOERR_FSYNC = ResultCode(rawValue: 1034)
    /// `SQLITE_IOERR_DIR_FSYNC` (1290). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_dir_fsync>
    public static let SQLITE_IOERR_DIR_FSYNC = ResultCode(rawValue: 1290)
    /// `SQLITE_IOERR_TRUNCATE` (1546). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_truncate>
    public static let SQLITE_IOERR_TRUNCATE = ResultCode(rawValue: 1546)
    /// `SQLITE_IOERR_FSTAT` (1802). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_fstat>
    public static let SQLITE_IOERR_FSTAT = ResultCode(rawValue: 1802)
    /// `SQLITE_IOERR_UNLOCK` (2058). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_unlock>
    public static let SQLITE_IOERR_UNLOCK = ResultCode(rawValue: 2058)
    /// `SQLITE_IOERR_RDLOCK` (2314). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_rdlock>
    public static let SQLITE_IOERR_RDLOCK = ResultCode(rawValue: 2314)
    /// `SQLITE_IOERR_DELETE` (2570). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_delete>
    public static let SQLITE_IOERR_DELETE = ResultCode(rawValue: 2570)
    /// `SQLITE_IOERR_BLOCKED` (2826). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_blocked>
    public static let SQLITE_IOERR_BLOCKED = ResultCode(rawValue: 2826)
    /// `SQLITE_IOERR_NOMEM` (3082). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_nomem>
    public static let SQLITE_IOERR_NOMEM = ResultCode(rawValue: 3082)
    /// `SQLITE_IOERR_ACCESS` (3338). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_access>
    public static let SQLITE_IOERR_ACCESS = ResultCode(rawValue: 3338)
    /// `SQLITE_IOERR_CHECKRESERVEDLOCK` (3594). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_checkreservedlock>
    public static let SQLITE_IOERR_CHECKRESERVEDLOCK = ResultCode(rawValue: 3594)
    /// `SQLITE_IOERR_LOCK` (3850). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_lock>
    public static let SQLITE_IOERR_LOCK = ResultCode(rawValue: 3850)
    /// `SQLITE_IOERR_CLOSE` (4106). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_close>
    public static let SQLITE_IOERR_CLOSE = ResultCode(rawValue: 4106)
    /// `SQLITE_IOERR_DIR_CLOSE` (4362). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_dir_close>
    public static let SQLITE_IOERR_DIR_CLOSE = ResultCode(rawValue: 4362)
    /// `SQLITE_IOERR_SHMOPEN` (4618). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_shmopen>
    public static let SQLITE_IOERR_SHMOPEN = ResultCode(rawValue: 4618)
    /// `SQLITE_IOERR_SHMSIZE` (4874). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_shmsize>
    public static let SQLITE_IOERR_SHMSIZE = ResultCode(rawValue: 4874)
    /// `SQLITE_IOERR_SHMLOCK` (5130). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_shmlock>
    public static let SQLITE_IOERR_SHMLOCK = ResultCode(rawValue: 5130)
    /// `SQLITE_IOERR_SHMMAP` (5386). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_shmmap>
    public static let SQLITE_IOERR_SHMMAP = ResultCode(rawValue: 5386)
    /// `SQLITE_IOERR_SEEK` (5642). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_seek>
    public static let SQLITE_IOERR_SEEK = ResultCode(rawValue: 5642)
    /// `SQLITE_IOERR_DELETE_NOENT` (5898). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_delete_noent>
    public static let SQLITE_IOERR_DELETE_NOENT = ResultCode(rawValue: 5898)
    /// `SQLITE_IOERR_MMAP` (6154). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_mmap>
    public static let SQLITE_IOERR_MMAP = ResultCode(rawValue: 6154)
    /// `SQLITE_IOERR_GETTEMPPATH` (6410). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_gettemppath>
    public static let SQLITE_IOERR_GETTEMPPATH = ResultCode(rawValue: 6410)
    /// `SQLITE_IOERR_CONVPATH` (6666). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_convpath>
    public static let SQLITE_IOERR_CONVPATH = ResultCode(rawValue: 6666)
    /// `SQLITE_IOERR_VNODE` (6922). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_vnode>
    public static let SQLITE_IOERR_VNODE = ResultCode(rawValue: 6922)
    /// `SQLITE_IOERR_AUTH` (7178). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_auth>
    public static let SQLITE_IOERR_AUTH = ResultCode(rawValue: 7178)
    /// `SQLITE_IOERR_BEGIN_ATOMIC` (7434). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_begin_atomic>
    public static let SQLITE_IOERR_BEGIN_ATOMIC = ResultCode(rawValue: 7434)
    /// `SQLITE_IOERR_COMMIT_ATOMIC` (7690). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_commit_atomic>
    public static let SQLITE_IOERR_COMMIT_ATOMIC = ResultCode(rawValue: 7690)
    /// `SQLITE_IOERR_ROLLBACK_ATOMIC` (7946). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_rollback_atomic>
    public static let SQLITE_IOERR_ROLLBACK_ATOMIC = ResultCode(rawValue: 7946)
    /// `SQLITE_IOERR_DATA` (8202). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_data>
    public static let SQLITE_IOERR_DATA = ResultCode(rawValue: 8202)
    /// `SQLITE_IOERR_CORRUPTFS` (8458). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_corruptfs>
    public static let SQLITE_IOERR_CORRUPTFS = ResultCode(rawValue: 8458)
    /// `SQLITE_IOERR_IN_PAGE` (8714). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ioerr_in_page>
    public static let SQLITE_IOERR_IN_PAGE = ResultCode(rawValue: 8714)
    /// `SQLITE_LOCKED_SHAREDCACHE` (262). Related SQLite documentation: <https://www.sqlite.org/rescode.html#locked_sharedcache>
    public static let SQLITE_LOCKED_SHAREDCACHE = ResultCode(rawValue: 262)
    /// `SQLITE_LOCKED_VTAB` (518). Related SQLite documentation: <https://www.sqlite.org/rescode.html#locked_vtab>
    public static let SQLITE_LOCKED_VTAB = ResultCode(rawValue: 518)
    /// `SQLITE_BUSY_RECOVERY` (261). Related SQLite documentation: <https://www.sqlite.org/rescode.html#busy_recovery>
    public static let SQLITE_BUSY_RECOVERY = ResultCode(rawValue: 261)
    /// `SQLITE_BUSY_SNAPSHOT` (517). Related SQLite documentation: <https://www.sqlite.org/rescode.html#busy_snapshot>
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: 517)
    /// `SQLITE_BUSY_TIMEOUT` (773). Related SQLite documentation: <https://www.sqlite.org/rescode.html#busy_timeout>
    public static let SQLITE_BUSY_TIMEOUT = ResultCode(rawValue: 773)
    /// `SQLITE_CANTOPEN_NOTEMPDIR` (270). Related SQLite documentation: <https://www.sqlite.org/rescode.html#cantopen_notempdir>
    public static let SQLITE_CANTOPEN_NOTEMPDIR = ResultCode(rawValue: 270)
    /// `SQLITE_CANTOPEN_ISDIR` (526). Related SQLite documentation: <https://www.sqlite.org/rescode.html#cantopen_isdir>
    public static let SQLITE_CANTOPEN_ISDIR = ResultCode(rawValue: 526)
    /// `SQLITE_CANTOPEN_FULLPATH` (782). Related SQLite documentation: <https://www.sqlite.org/rescode.html#cantopen_fullpath>
    public static let SQLITE_CANTOPEN_FULLPATH = ResultCode(rawValue: 782)
    /// `SQLITE_CANTOPEN_CONVPATH` (1038). Related SQLite documentation: <https://www.sqlite.org/rescode.html#cantopen_convpath>
    public static let SQLITE_CANTOPEN_CONVPATH = ResultCode(rawValue: 1038)
    /// `SQLITE_CANTOPEN_DIRTYWAL` (1294). Related SQLite documentation: <https://www.sqlite.org/rescode.html#cantopen_dirtywal>
    public static let SQLITE_CANTOPEN_DIRTYWAL = ResultCode(rawValue: 1294)
    /// `SQLITE_CANTOPEN_SYMLINK` (1550). Related SQLite documentation: <https://www.sqlite.org/rescode.html#cantopen_symlink>
    public static let SQLITE_CANTOPEN_SYMLINK = ResultCode(rawValue: 1550)
    /// `SQLITE_CORRUPT_VTAB` (267). Related SQLite documentation: <https://www.sqlite.org/rescode.html#corrupt_vtab>
    public static let SQLITE_CORRUPT_VTAB = ResultCode(rawValue: 267)
    /// `SQLITE_CORRUPT_SEQUENCE` (523). Related SQLite documentation: <https://www.sqlite.org/rescode.html#corrupt_sequence>
    public static let SQLITE_CORRUPT_SEQUENCE = ResultCode(rawValue: 523)
    /// `SQLITE_CORRUPT_INDEX` (779). Related SQLite documentation: <https://www.sqlite.org/rescode.html#corrupt_index>
    public static let SQLITE_CORRUPT_INDEX = ResultCode(rawValue: 779)
    /// `SQLITE_READONLY_RECOVERY` (264). Related SQLite documentation: <https://www.sqlite.org/rescode.html#readonly_recovery>
    public static let SQLITE_READONLY_RECOVERY = ResultCode(rawValue: 264)
    /// `SQLITE_READONLY_CANTLOCK` (520). Related SQLite documentation: <https://www.sqlite.org/rescode.html#readonly_cantlock>
    public static let SQLITE_READONLY_CANTLOCK = ResultCode(rawValue: 520)
    /// `SQLITE_READONLY_ROLLBACK` (776). Related SQLite documentation: <https://www.sqlite.org/rescode.html#readonly_rollback>
    public static let SQLITE_READONLY_ROLLBACK = ResultCode(rawValue: 776)
    /// `SQLITE_READONLY_DBMOVED` (1032). Related SQLite documentation: <https://www.sqlite.org/rescode.html#readonly_dbmoved>
    public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: 1032)
    /// `SQLITE_READONLY_CANTINIT` (1288). Related SQLite documentation: <https://www.sqlite.org/rescode.html#readonly_cantinit>
    public static let SQLITE_READONLY_CANTINIT = ResultCode(rawValue: 1288)
    /// `SQLITE_READONLY_DIRECTORY` (1544). Related SQLite documentation: <https://www.sqlite.org/rescode.html#readonly_directory>
    public static let SQLITE_READONLY_DIRECTORY = ResultCode(rawValue: 1544)
    /// `SQLITE_ABORT_ROLLBACK` (516). Related SQLite documentation: <https://www.sqlite.org/rescode.html#abort_rollback>
    public static let SQLITE_ABORT_ROLLBACK = ResultCode(rawValue: 516)
    /// `SQLITE_CONSTRAINT_CHECK` (275). Related SQLite documentation: <https://www.sqlite.org/rescode.html#constraint_check>
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: 275)
    /// `SQLITE_CONSTRAINT_COMMITHOOK` (531). Related SQLite documentation: <https://www.sqlite.org/rescode.html#constraint_commithook>
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode(rawValue: 531)
    /// `SQLITE_CONSTRAINT_FOREIGNKEY` (787). Related SQLite documentation: <https://www.sqlite.org/rescode.html#constraint_foreignkey>
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: 787)
    /// `SQLITE_CONSTRAINT_FUNCTION` (1043). Related SQLite documentation: <https://www.sqlite.org/rescode.html#constraint_function>
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode(rawValue: 1043)
    /// `SQLITE_CONSTRAINT_NOTNULL` (1299). Related SQLite documentation: <https://www.sqlite.org/rescode.html#constraint_notnull>
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: 1299)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY` (1555). Related SQLite documentation: <https://www.sqlite.org/rescode.html#constraint_primarykey>
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: 1555)
    /// `SQLITE_CONSTRAINT_TRIGGER` (1811). Related SQLite documentation: <https://www.sqlite.org/rescode.html#constraint_trigger>
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: 1811)
    /// `SQLITE_CONSTRAINT_UNIQUE` (2067). Related SQLite documentation: <https://www.sqlite.org/rescode.html#constraint_unique>
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: 2067)
    /// `SQLITE_CONSTRAINT_VTAB` (2323). Related SQLite documentation: <https://www.sqlite.org/rescode.html#constraint_vtab>
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode(rawValue: 2323)
    /// `SQLITE_CONSTRAINT_ROWID` (2579). Related SQLite documentation: <https://www.sqlite.org/rescode.html#constraint_rowid>
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode(rawValue: 2579)
    /// `SQLITE_CONSTRAINT_PINNED` (2835). Related SQLite documentation: <https://www.sqlite.org/rescode.html#constraint_pinned>
    public static let SQLITE_CONSTRAINT_PINNED = ResultCode(rawValue: 2835)
    /// `SQLITE_CONSTRAINT_DATATYPE` (3091). Related SQLite documentation: <https://www.sqlite.org/rescode.html#constraint_datatype>
    public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode(rawValue: 3091)
    /// `SQLITE_NOTICE_RECOVER_WAL` (283). Related SQLite documentation: <https://www.sqlite.org/rescode.html#notice_recover_wal>
    public static let SQLITE_NOTICE_RECOVER_WAL = ResultCode(rawValue: 283)
    /// `SQLITE_NOTICE_RECOVER_ROLLBACK` (539). Related SQLite documentation: <https://www.sqlite.org/rescode.html#notice_recover_rollback>
    public static let SQLITE_NOTICE_RECOVER_ROLLBACK = ResultCode(rawValue: 539)
    /// `SQLITE_NOTICE_RBU` (795). Related SQLite documentation: <https://www.sqlite.org/rescode.html#notice_rbu>
    public static let SQLITE_NOTICE_RBU = ResultCode(rawValue: 795)
    /// `SQLITE_WARNING_AUTOINDEX` (284). Related SQLite documentation: <https://www.sqlite.org/rescode.html#warning_autoindex>
    public static let SQLITE_WARNING_AUTOINDEX = ResultCode(rawValue: 284)
    /// `SQLITE_AUTH_USER` (279). Related SQLite documentation: <https://www.sqlite.org/rescode.html#auth_user>
    public static let SQLITE_AUTH_USER = ResultCode(rawValue: 279)
    /// `SQLITE_OK_LOAD_PERMANENTLY` (256). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ok_load_permanently>
    public static let SQLITE_OK_LOAD_PERMANENTLY = ResultCode(rawValue: 256)
    /// `SQLITE_OK_SYMLINK` (512). Related SQLite documentation: <https://www.sqlite.org/rescode.html#ok_symlink>
    public static let SQLITE_OK_SYMLINK = ResultCode(rawValue: 512)
}

// Lets `catch DatabaseError.SQLITE_CONSTRAINT` and
// `case DatabaseError.SQLITE_BUSY` match result codes directly.
extension DatabaseError {
    /// The `SQLITE_OK` result code, for matching errors: `catch DatabaseError.SQLITE_OK`.
    public static let SQLITE_OK = ResultCode.SQLITE_OK
    /// The `SQLITE_ERROR` result code, for matching errors: `catch DatabaseError.SQLITE_ERROR`.
    public static let SQLITE_ERROR = ResultCode.SQLITE_ERROR
    /// The `SQLITE_INTERNAL` result code, for matching errors: `catch DatabaseError.SQLITE_INTERNAL`.
    public static let SQLITE_INTERNAL = ResultCode.SQLITE_INTERNAL
    /// The `SQLITE_PERM` result code, for matching errors: `catch DatabaseError.SQLITE_PERM`.
    public static let SQLITE_PERM = ResultCode.SQLITE_PERM
    /// The `SQLITE_ABORT` result code, for matching errors: `catch DatabaseError.SQLITE_ABORT`.
    public static let SQLITE_ABORT = ResultCode.SQLITE_ABORT
    /// The `SQLITE_BUSY` result code, for matching errors: `catch DatabaseError.SQLITE_BUSY`.
    public static let SQLITE_BUSY = ResultCode.SQLITE_BUSY
    /// The `SQLITE_LOCKED` result code, for matching errors: `catch DatabaseError.SQLITE_LOCKED`.
    public static let SQLITE_LOCKED = ResultCode.SQLITE_LOCKED
    /// The `SQLITE_NOMEM` result code, for matching errors: `catch DatabaseError.SQLITE_NOMEM`.
    public static let SQLITE_NOMEM = ResultCode.SQLITE_NOMEM
    /// The `SQLITE_READONLY` result code, for matching errors: `catch DatabaseError.SQLITE_READONLY`.
    public static let SQLITE_READONLY = ResultCode.SQLITE_READONLY
    /// The `SQLITE_INTERRUPT` result code, for matching errors: `catch DatabaseError.SQLITE_INTERRUPT`.
    public static let SQLITE_INTERRUPT = ResultCode.SQLITE_INTERRUPT
    /// The `SQLITE_IOERR` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR`.
    public static let SQLITE_IOERR = ResultCode.SQLITE_IOERR
    /// The `SQLITE_CORRUPT` result code, for matching errors: `catch DatabaseError.SQLITE_CORRUPT`.
    public static let SQLITE_CORRUPT = ResultCode.SQLITE_CORRUPT
    /// The `SQLITE_NOTFOUND` result code, for matching errors: `catch DatabaseError.SQLITE_NOTFOUND`.
    public static let SQLITE_NOTFOUND = ResultCode.SQLITE_NOTFOUND
    /// The `SQLITE_FULL` result code, for matching errors: `catch DatabaseError.SQLITE_FULL`.
    public static let SQLITE_FULL = ResultCode.SQLITE_FULL
    /// The `SQLITE_CANTOPEN` result code, for matching errors: `catch DatabaseError.SQLITE_CANTOPEN`.
    public static let SQLITE_CANTOPEN = ResultCode.SQLITE_CANTOPEN
    /// The `SQLITE_PROTOCOL` result code, for matching errors: `catch DatabaseError.SQLITE_PROTOCOL`.
    public static let SQLITE_PROTOCOL = ResultCode.SQLITE_PROTOCOL
    /// The `SQLITE_EMPTY` result code, for matching errors: `catch DatabaseError.SQLITE_EMPTY`.
    public static let SQLITE_EMPTY = ResultCode.SQLITE_EMPTY
    /// The `SQLITE_SCHEMA` result code, for matching errors: `catch DatabaseError.SQLITE_SCHEMA`.
    public static let SQLITE_SCHEMA = ResultCode.SQLITE_SCHEMA
    /// The `SQLITE_TOOBIG` result code, for matching errors: `catch DatabaseError.SQLITE_TOOBIG`.
    public static let SQLITE_TOOBIG = ResultCode.SQLITE_TOOBIG
    /// The `SQLITE_CONSTRAINT` result code, for matching errors: `catch DatabaseError.SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT = ResultCode.SQLITE_CONSTRAINT
    /// The `SQLITE_MISMATCH` result code, for matching errors: `catch DatabaseError.SQLITE_MISMATCH`.
    public static let SQLITE_MISMATCH = ResultCode.SQLITE_MISMATCH
    /// The `SQLITE_MISUSE` result code, for matching errors: `catch DatabaseError.SQLITE_MISUSE`.
    public static let SQLITE_MISUSE = ResultCode.SQLITE_MISUSE
    /// The `SQLITE_NOLFS` result code, for matching errors: `catch DatabaseError.SQLITE_NOLFS`.
    public static let SQLITE_NOLFS = ResultCode.SQLITE_NOLFS
    /// The `SQLITE_AUTH` result code, for matching errors: `catch DatabaseError.SQLITE_AUTH`.
    public static let SQLITE_AUTH = ResultCode.SQLITE_AUTH
    /// The `SQLITE_FORMAT` result code, for matching errors: `catch DatabaseError.SQLITE_FORMAT`.
    public static let SQLITE_FORMAT = ResultCode.SQLITE_FORMAT
    /// The `SQLITE_RANGE` result code, for matching errors: `catch DatabaseError.SQLITE_RANGE`.
    public static let SQLITE_RANGE = ResultCode.SQLITE_RANGE
    /// The `SQLITE_NOTADB` result code, for matching errors: `catch DatabaseError.SQLITE_NOTADB`.
    public static let SQLITE_NOTADB = ResultCode.SQLITE_NOTADB
    /// The `SQLITE_NOTICE` result code, for matching errors: `catch DatabaseError.SQLITE_NOTICE`.
    public static let SQLITE_NOTICE = ResultCode.SQLITE_NOTICE
    /// The `SQLITE_WARNING` result code, for matching errors: `catch DatabaseError.SQLITE_WARNING`.
    public static let SQLITE_WARNING = ResultCode.SQLITE_WARNING
    /// The `SQLITE_ROW` result code, for matching errors: `catch DatabaseError.SQLITE_ROW`.
    public static let SQLITE_ROW = ResultCode.SQLITE_ROW
    /// The `SQLITE_DONE` result code, for matching errors: `catch DatabaseError.SQLITE_DONE`.
    public static let SQLITE_DONE = ResultCode.SQLITE_DONE
    /// The `SQLITE_ERROR_MISSING_COLLSEQ` result code, for matching errors: `catch DatabaseError.SQLITE_ERROR_MISSING_COLLSEQ`.
    public static let SQLITE_ERROR_MISSING_COLLSEQ = ResultCode.SQLITE_ERROR_MISSING_COLLSEQ
    /// The `SQLITE_ERROR_RETRY` result code, for matching errors: `catch DatabaseError.SQLITE_ERROR_RETRY`.
    public static let SQLITE_ERROR_RETRY = ResultCode.SQLITE_ERROR_RETRY
    /// The `SQLITE_ERROR_SNAPSHOT` result code, for matching errors: `catch DatabaseError.SQLITE_ERROR_SNAPSHOT`.
    public static let SQLITE_ERROR_SNAPSHOT = ResultCode.SQLITE_ERROR_SNAPSHOT
    /// The `SQLITE_IOERR_READ` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_READ`.
    public static let SQLITE_IOERR_READ = ResultCode.SQLITE_IOERR_READ
    /// The `SQLITE_IOERR_SHORT_READ` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_SHORT_READ`.
    public static let SQLITE_IOERR_SHORT_READ = ResultCode.SQLITE_IOERR_SHORT_READ
    /// The `SQLITE_IOERR_WRITE` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_WRITE`.
    public static let SQLITE_IOERR_WRITE = ResultCode.SQLITE_IOERR_WRITE
    /// The `SQLITE_IOERR_FSYNC` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_FSYNC`.
    public static let SQLITE_IOERR_FSYNC = ResultCode.SQLITE_IOERR_FSYNC
    /// The `SQLITE_IOERR_DIR_FSYNC` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_DIR_FSYNC`.
    public static let SQLITE_IOERR_DIR_FSYNC = ResultCode.SQLITE_IOERR_DIR_FSYNC
    /// The `SQLITE_IOERR_TRUNCATE` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_TRUNCATE`.
    public static let SQLITE_IOERR_TRUNCATE = ResultCode.SQLITE_IOERR_TRUNCATE
    /// The `SQLITE_IOERR_FSTAT` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_FSTAT`.
    public static let SQLITE_IOERR_FSTAT = ResultCode.SQLITE_IOERR_FSTAT
    /// The `SQLITE_IOERR_UNLOCK` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_UNLOCK`.
    public static let SQLITE_IOERR_UNLOCK = ResultCode.SQLITE_IOERR_UNLOCK
    /// The `SQLITE_IOERR_RDLOCK` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_RDLOCK`.
    public static let SQLITE_IOERR_RDLOCK = ResultCode.SQLITE_IOERR_RDLOCK
    /// The `SQLITE_IOERR_DELETE` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_DELETE`.
    public static let SQLITE_IOERR_DELETE = ResultCode.SQLITE_IOERR_DELETE
    /// The `SQLITE_IOERR_BLOCKED` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_BLOCKED`.
    public static let SQLITE_IOERR_BLOCKED = ResultCode.SQLITE_IOERR_BLOCKED
    /// The `SQLITE_IOERR_NOMEM` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_NOMEM`.
    public static let SQLITE_IOERR_NOMEM = ResultCode.SQLITE_IOERR_NOMEM
    /// The `SQLITE_IOERR_ACCESS` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_ACCESS`.
    public static let SQLITE_IOERR_ACCESS = ResultCode.SQLITE_IOERR_ACCESS
    /// The `SQLITE_IOERR_CHECKRESERVEDLOCK` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_CHECKRESERVEDLOCK`.
    public static let SQLITE_IOERR_CHECKRESERVEDLOCK = ResultCode.SQLITE_IOERR_CHECKRESERVEDLOCK
    /// The `SQLITE_IOERR_LOCK` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_LOCK`.
    public static let SQLITE_IOERR_LOCK = ResultCode.SQLITE_IOERR_LOCK
    /// The `SQLITE_IOERR_CLOSE` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_CLOSE`.
    public static let SQLITE_IOERR_CLOSE = ResultCode.SQLITE_IOERR_CLOSE
    /// The `SQLITE_IOERR_DIR_CLOSE` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_DIR_CLOSE`.
    public static let SQLITE_IOERR_DIR_CLOSE = ResultCode.SQLITE_IOERR_DIR_CLOSE
    /// The `SQLITE_IOERR_SHMOPEN` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_SHMOPEN`.
    public static let SQLITE_IOERR_SHMOPEN = ResultCode.SQLITE_IOERR_SHMOPEN
    /// The `SQLITE_IOERR_SHMSIZE` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_SHMSIZE`.
    public static let SQLITE_IOERR_SHMSIZE = ResultCode.SQLITE_IOERR_SHMSIZE
    /// The `SQLITE_IOERR_SHMLOCK` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_SHMLOCK`.
    public static let SQLITE_IOERR_SHMLOCK = ResultCode.SQLITE_IOERR_SHMLOCK
    /// The `SQLITE_IOERR_SHMMAP` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_SHMMAP`.
    public static let SQLITE_IOERR_SHMMAP = ResultCode.SQLITE_IOERR_SHMMAP
    /// The `SQLITE_IOERR_SEEK` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_SEEK`.
    public static let SQLITE_IOERR_SEEK = ResultCode.SQLITE_IOERR_SEEK
    /// The `SQLITE_IOERR_DELETE_NOENT` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_DELETE_NOENT`.
    public static let SQLITE_IOERR_DELETE_NOENT = ResultCode.SQLITE_IOERR_DELETE_NOENT
    /// The `SQLITE_IOERR_MMAP` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_MMAP`.
    public static let SQLITE_IOERR_MMAP = ResultCode.SQLITE_IOERR_MMAP
    /// The `SQLITE_IOERR_GETTEMPPATH` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_GETTEMPPATH`.
    public static let SQLITE_IOERR_GETTEMPPATH = ResultCode.SQLITE_IOERR_GETTEMPPATH
    /// The `SQLITE_IOERR_CONVPATH` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_CONVPATH`.
    public static let SQLITE_IOERR_CONVPATH = ResultCode.SQLITE_IOERR_CONVPATH
    /// The `SQLITE_IOERR_VNODE` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_VNODE`.
    public static let SQLITE_IOERR_VNODE = ResultCode.SQLITE_IOERR_VNODE
    /// The `SQLITE_IOERR_AUTH` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_AUTH`.
    public static let SQLITE_IOERR_AUTH = ResultCode.SQLITE_IOERR_AUTH
    /// The `SQLITE_IOERR_BEGIN_ATOMIC` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_BEGIN_ATOMIC`.
    public static let SQLITE_IOERR_BEGIN_ATOMIC = ResultCode.SQLITE_IOERR_BEGIN_ATOMIC
    /// The `SQLITE_IOERR_COMMIT_ATOMIC` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_COMMIT_ATOMIC`.
    public static let SQLITE_IOERR_COMMIT_ATOMIC = ResultCode.SQLITE_IOERR_COMMIT_ATOMIC
    /// The `SQLITE_IOERR_ROLLBACK_ATOMIC` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_ROLLBACK_ATOMIC`.
    public static let SQLITE_IOERR_ROLLBACK_ATOMIC = ResultCode.SQLITE_IOERR_ROLLBACK_ATOMIC
    /// The `SQLITE_IOERR_DATA` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_DATA`.
    public static let SQLITE_IOERR_DATA = ResultCode.SQLITE_IOERR_DATA
    /// The `SQLITE_IOERR_CORRUPTFS` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_CORRUPTFS`.
    public static let SQLITE_IOERR_CORRUPTFS = ResultCode.SQLITE_IOERR_CORRUPTFS
    /// The `SQLITE_IOERR_IN_PAGE` result code, for matching errors: `catch DatabaseError.SQLITE_IOERR_IN_PAGE`.
    public static let SQLITE_IOERR_IN_PAGE = ResultCode.SQLITE_IOERR_IN_PAGE
    /// The `SQLITE_LOCKED_SHAREDCACHE` result code, for matching errors: `catch DatabaseError.SQLITE_LOCKED_SHAREDCACHE`.
    public static let SQLITE_LOCKED_SHAREDCACHE = ResultCode.SQLITE_LOCKED_SHAREDCACHE
    /// The `SQLITE_LOCKED_VTAB` result code, for matching errors: `catch DatabaseError.SQLITE_LOCKED_VTAB`.
    public static let SQLITE_LOCKED_VTAB = ResultCode.SQLITE_LOCKED_VTAB
    /// The `SQLITE_BUSY_RECOVERY` result code, for matching errors: `catch DatabaseError.SQLITE_BUSY_RECOVERY`.
    public static let SQLITE_BUSY_RECOVERY = ResultCode.SQLITE_BUSY_RECOVERY
    /// The `SQLITE_BUSY_SNAPSHOT` result code, for matching errors: `catch DatabaseError.SQLITE_BUSY_SNAPSHOT`.
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode.SQLITE_BUSY_SNAPSHOT
    /// The `SQLITE_BUSY_TIMEOUT` result code, for matching errors: `catch DatabaseError.SQLITE_BUSY_TIMEOUT`.
    public static let SQLITE_BUSY_TIMEOUT = ResultCode.SQLITE_BUSY_TIMEOUT
    /// The `SQLITE_CANTOPEN_NOTEMPDIR` result code, for matching errors: `catch DatabaseError.SQLITE_CANTOPEN_NOTEMPDIR`.
    public static let SQLITE_CANTOPEN_NOTEMPDIR = ResultCode.SQLITE_CANTOPEN_NOTEMPDIR
    /// The `SQLITE_CANTOPEN_ISDIR` result code, for matching errors: `catch DatabaseError.SQLITE_CANTOPEN_ISDIR`.
    public static let SQLITE_CANTOPEN_ISDIR = ResultCode.SQLITE_CANTOPEN_ISDIR
    /// The `SQLITE_CANTOPEN_FULLPATH` result code, for matching errors: `catch DatabaseError.SQLITE_CANTOPEN_FULLPATH`.
    public static let SQLITE_CANTOPEN_FULLPATH = ResultCode.SQLITE_CANTOPEN_FULLPATH
    /// The `SQLITE_CANTOPEN_CONVPATH` result code, for matching errors: `catch DatabaseError.SQLITE_CANTOPEN_CONVPATH`.
    public static let SQLITE_CANTOPEN_CONVPATH = ResultCode.SQLITE_CANTOPEN_CONVPATH
    /// The `SQLITE_CANTOPEN_DIRTYWAL` result code, for matching errors: `catch DatabaseError.SQLITE_CANTOPEN_DIRTYWAL`.
    public static let SQLITE_CANTOPEN_DIRTYWAL = ResultCode.SQLITE_CANTOPEN_DIRTYWAL
    /// The `SQLITE_CANTOPEN_SYMLINK` result code, for matching errors: `catch DatabaseError.SQLITE_CANTOPEN_SYMLINK`.
    public static let SQLITE_CANTOPEN_SYMLINK = ResultCode.SQLITE_CANTOPEN_SYMLINK
    /// The `SQLITE_CORRUPT_VTAB` result code, for matching errors: `catch DatabaseError.SQLITE_CORRUPT_VTAB`.
    public static let SQLITE_CORRUPT_VTAB = ResultCode.SQLITE_CORRUPT_VTAB
    /// The `SQLITE_CORRUPT_SEQUENCE` result code, for matching errors: `catch DatabaseError.SQLITE_CORRUPT_SEQUENCE`.
    public static let SQLITE_CORRUPT_SEQUENCE = ResultCode.SQLITE_CORRUPT_SEQUENCE
    /// The `SQLITE_CORRUPT_INDEX` result code, for matching errors: `catch DatabaseError.SQLITE_CORRUPT_INDEX`.
    public static let SQLITE_CORRUPT_INDEX = ResultCode.SQLITE_CORRUPT_INDEX
    /// The `SQLITE_READONLY_RECOVERY` result code, for matching errors: `catch DatabaseError.SQLITE_READONLY_RECOVERY`.
    public static let SQLITE_READONLY_RECOVERY = ResultCode.SQLITE_READONLY_RECOVERY
    /// The `SQLITE_READONLY_CANTLOCK` result code, for matching errors: `catch DatabaseError.SQLITE_READONLY_CANTLOCK`.
    public static let SQLITE_READONLY_CANTLOCK = ResultCode.SQLITE_READONLY_CANTLOCK
    /// The `SQLITE_READONLY_ROLLBACK` result code, for matching errors: `catch DatabaseError.SQLITE_READONLY_ROLLBACK`.
    public static let SQLITE_READONLY_ROLLBACK = ResultCode.SQLITE_READONLY_ROLLBACK
    /// The `SQLITE_READONLY_DBMOVED` result code, for matching errors: `catch DatabaseError.SQLITE_READONLY_DBMOVED`.
    public static let SQLITE_READONLY_DBMOVED = ResultCode.SQLITE_READONLY_DBMOVED
    /// The `SQLITE_READONLY_CANTINIT` result code, for matching errors: `catch DatabaseError.SQLITE_READONLY_CANTINIT`.
    public static let SQLITE_READONLY_CANTINIT = ResultCode.SQLITE_READONLY_CANTINIT
    /// The `SQLITE_READONLY_DIRECTORY` result code, for matching errors: `catch DatabaseError.SQLITE_READONLY_DIRECTORY`.
    public static let SQLITE_READONLY_DIRECTORY = ResultCode.SQLITE_READONLY_DIRECTORY
    /// The `SQLITE_ABORT_ROLLBACK` result code, for matching errors: `catch DatabaseError.SQLITE_ABORT_ROLLBACK`.
    public static let SQLITE_ABORT_ROLLBACK = ResultCode.SQLITE_ABORT_ROLLBACK
    /// The `SQLITE_CONSTRAINT_CHECK` result code, for matching errors: `catch DatabaseError.SQLITE_CONSTRAINT_CHECK`.
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode.SQLITE_CONSTRAINT_CHECK
    /// The `SQLITE_CONSTRAINT_COMMITHOOK` result code, for matching errors: `catch DatabaseError.SQLITE_CONSTRAINT_COMMITHOOK`.
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode.SQLITE_CONSTRAINT_COMMITHOOK
    /// The `SQLITE_CONSTRAINT_FOREIGNKEY` result code, for matching errors: `catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY`.
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY
    /// The `SQLITE_CONSTRAINT_FUNCTION` result code, for matching errors: `catch DatabaseError.SQLITE_CONSTRAINT_FUNCTION`.
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode.SQLITE_CONSTRAINT_FUNCTION
    /// The `SQLITE_CONSTRAINT_NOTNULL` result code, for matching errors: `catch DatabaseError.SQLITE_CONSTRAINT_NOTNULL`.
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode.SQLITE_CONSTRAINT_NOTNULL
    /// The `SQLITE_CONSTRAINT_PRIMARYKEY` result code, for matching errors: `catch DatabaseError.SQLITE_CONSTRAINT_PRIMARYKEY`.
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY
    /// The `SQLITE_CONSTRAINT_TRIGGER` result code, for matching errors: `catch DatabaseError.SQLITE_CONSTRAINT_TRIGGER`.
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode.SQLITE_CONSTRAINT_TRIGGER
    /// The `SQLITE_CONSTRAINT_UNIQUE` result code, for matching errors: `catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE`.
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode.SQLITE_CONSTRAINT_UNIQUE
    /// The `SQLITE_CONSTRAINT_VTAB` result code, for matching errors: `catch DatabaseError.SQLITE_CONSTRAINT_VTAB`.
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode.SQLITE_CONSTRAINT_VTAB
    /// The `SQLITE_CONSTRAINT_ROWID` result code, for matching errors: `catch DatabaseError.SQLITE_CONSTRAINT_ROWID`.
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode.SQLITE_CONSTRAINT_ROWID
    /// The `SQLITE_CONSTRAINT_PINNED` result code, for matching errors: `catch DatabaseError.SQLITE_CONSTRAINT_PINNED`.
    public static let SQLITE_CONSTRAINT_PINNED = ResultCode.SQLITE_CONSTRAINT_PINNED
    /// The `SQLITE_CONSTRAINT_DATATYPE` result code, for matching errors: `catch DatabaseError.SQLITE_CONSTRAINT_DATATYPE`.
    public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode.SQLITE_CONSTRAINT_DATATYPE
    /// The `SQLITE_NOTICE_RECOVER_WAL` result code, for matching errors: `catch DatabaseError.SQLITE_NOTICE_RECOVER_WAL`.
    public static let SQLITE_NOTICE_RECOVER_WAL = ResultCode.SQLITE_NOTICE_RECOVER_WAL
    /// The `SQLITE_NOTICE_RECOVER_ROLLBACK` result code, for matching errors: `catch DatabaseError.SQLITE_NOTICE_RECOVER_ROLLBACK`.
    public static let SQLITE_NOTICE_RECOVER_ROLLBACK = ResultCode.SQLITE_NOTICE_RECOVER_ROLLBACK
    /// The `SQLITE_NOTICE_RBU` result code, for matching errors: `catch DatabaseError.SQLITE_NOTICE_RBU`.
    public static let SQLITE_NOTICE_RBU = ResultCode.SQLITE_NOTICE_RBU
    /// The `SQLITE_WARNING_AUTOINDEX` result code, for matching errors: `catch DatabaseError.SQLITE_WARNING_AUTOINDEX`.
    public static let SQLITE_WARNING_AUTOINDEX = ResultCode.SQLITE_WARNING_AUTOINDEX
    /// The `SQLITE_AUTH_USER` result code, for matching errors: `catch DatabaseError.SQLITE_AUTH_USER`.
    public static let SQLITE_AUTH_USER = ResultCode.SQLITE_AUTH_USER
    /// The `SQLITE_OK_LOAD_PERMANENTLY` result code, for matching errors: `catch DatabaseError.SQLITE_OK_LOAD_PERMANENTLY`.
    public static let SQLITE_OK_LOAD_PERMANENTLY = ResultCode.SQLITE_OK_LOAD_PERMANENTLY
    /// The `SQLITE_OK_SYMLINK` result code, for matching errors: `catch DatabaseError.SQLITE_OK_SYMLINK`.
    public static let SQLITE_OK_SYMLINK = ResultCode.SQLITE_OK_SYMLINK
}
