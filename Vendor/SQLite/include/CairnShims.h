/*
 * Header of the CairnSQLiteShims module: the C helpers of Cairn, for what
 * Swift cannot call or import directly and for the fast column readers.
 * Cairn imports this module without re-exporting it, so that `import Cairn`
 * gives users SQLite's C interface and nothing of these helpers
 * (Scripts/check-consumer.sh checks it). CairnSQLite.c includes this header
 * after the amalgamation, so that the definitions there are checked against
 * these declarations, and the hub's layout is declared only here.
 */
#ifndef CAIRN_SHIMS_H
#define CAIRN_SHIMS_H

#include "CairnSQLite.h"
#include <stdint.h>

/* SQLITE_TRANSIENT is a cast macro that Swift does not import. */
static inline sqlite3_destructor_type _cairn_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/* sqlite3_db_config is variadic: one shim per argument shape we use. */
static inline int _cairn_sqlite_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

/* sqlite3_config is variadic: install the error log callback. */
typedef void (*_cairn_sqlite_log_callback)(void *, int, const char *);
static inline int _cairn_sqlite_config_log(_cairn_sqlite_log_callback callback, void *context) {
    return sqlite3_config(SQLITE_CONFIG_LOG, callback, context);
}

/*
 * Fast column readers, defined in CairnSQLite.c next to the amalgamation.
 * They return the type of column i of the current row (SQLITE_NULL when the
 * statement has no row or no such column), and set the value for numbers
 * (_cairn_column_number) or text (_cairn_column_text, UTF-8 bytes and their
 * count; it returns SQLITE_NOMEM when the text cannot be converted).
 */
int _cairn_column_number(sqlite3_stmt *pStmt, int i, sqlite3_int64 *pInt, double *pReal);
int _cairn_column_text(sqlite3_stmt *pStmt, int i, const unsigned char **pText, int *pCount);
int _cairn_column_type(sqlite3_stmt *pStmt, int i);

/*
 * The conversions between storage classes that reading a column makes
 * (https://www.sqlite.org/datatype3.html). _cairn_column_text_number reads
 * the TEXT value of column i as NUMERIC affinity would: SQLITE_INTEGER (and
 * *pInt) for an integer that fits in 64 bits, SQLITE_FLOAT (and *pReal) for
 * any other number, SQLITE_TEXT when the text is not a number, SQLITE_NOMEM
 * when the text cannot be read, SQLITE_NULL when the value is not TEXT.
 * _cairn_column_number_text writes the text of an INTEGER or REAL value into
 * zBuf (nBuf bytes, 32 are enough), as sqlite3_column_text spells it, and
 * returns its length; 0 when the value is not a number.
 * _cairn_column_numeric is _cairn_column_number for every type but TEXT,
 * and _cairn_column_text_number for TEXT: the readers of numbers make one
 * call whatever the column holds.
 */
int _cairn_column_text_number(sqlite3_stmt *pStmt, int i, sqlite3_int64 *pInt, double *pReal);
int _cairn_column_numeric(sqlite3_stmt *pStmt, int i, sqlite3_int64 *pInt, double *pReal);
int _cairn_column_number_text(sqlite3_stmt *pStmt, int i, char *zBuf, int nBuf);

/*
 * The fts5_api of a connection, or NULL: "SELECT fts5(?1)" with the pointer
 * bound with the "fts5_api_ptr" type (https://www.sqlite.org/fts5.html#extending_fts5).
 * The type string must outlive the statement, hence a C helper.
 */
fts5_api *_cairn_fts5_api(sqlite3 *db);

/*
 * Cairn's thread-local storage: one variable per thread, a record of pointer
 * slots. While a call runs, a slot may name a Swift object for code deeper in
 * the same call that receives no argument leading to it (the current
 * database access, the row whose record is being decoded, ...). The caller
 * that fills a slot keeps the object alive, and puts the previous pointer
 * back before it returns. Sources/Cairn/Core/Raw/ThreadSlot.swift is the one
 * place that reads and writes the slots, and lists what each one holds
 * (`ThreadSlotIndex`).
 *
 * The address of the variable also identifies the current thread: C11 makes
 * it distinct for each live thread. Database accesses record it, and cursor
 * rows compare it before each read.
 *
 * On Linux the variable uses the initial-exec TLS model: its address is the
 * thread pointer plus a constant, so reading a slot or the thread's identity
 * costs no call (pthread_self() is a call through the PLT, which cost about
 * 5% of the time of FetchBenchmark "1 positional"; pthread_getspecific() cost
 * two calls per statement check). Elsewhere the platform's default model
 * applies.
 */
#define CAIRN_THREAD_SLOT_COUNT 8
struct _cairn_thread_storage {
    void *slots[CAIRN_THREAD_SLOT_COUNT];
};
#if defined(__linux__)
extern _Thread_local struct _cairn_thread_storage _cairn_thread_storage __attribute__((tls_model("initial-exec")));
#else
extern _Thread_local struct _cairn_thread_storage _cairn_thread_storage;
#endif
static inline uintptr_t _cairn_thread_identity(void) {
    return (uintptr_t)&_cairn_thread_storage;
}
/* The address of a slot on the current thread; index < CAIRN_THREAD_SLOT_COUNT. */
static inline void **_cairn_thread_slot(unsigned index) {
    return &_cairn_thread_storage.slots[index];
}

/*
 * Relaxed atomic loads and stores of 64-bit words, for the scope cells of
 * Cairn (Sources/Cairn/Core/Raw/ScopeCell.swift): a value that user code may
 * keep, or send to another thread, reads the generation of its cell without a
 * data race. On x86-64 and arm64 they compile to plain loads and stores.
 */
static inline uint64_t _cairn_atomic_load_u64(const uint64_t *p) {
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}
static inline void _cairn_atomic_store_u64(uint64_t *p, uint64_t value) {
    __atomic_store_n(p, value, __ATOMIC_RELAXED);
}

/*
 * The pre-update hook of a connection, shared by Cairn's transaction
 * observers and the sessions of the session extension. SQLite keeps one
 * pre-update hook per connection, and the session extension takes it for
 * itself, keeping its list of sessions as the hook's context: a session
 * created while Cairn's hook is installed would read Cairn's context as a
 * session. So Cairn installs one dispatcher, which calls the observers'
 * callback and the session extension's hook, and creates and deletes
 * sessions through the two functions below, which give the session
 * extension its list of sessions for the duration of the call.
 *
 * The hub lives as long as its connection (Sources/Cairn/Core/Database/
 * ConnectionResources.swift allocates and frees it).
 */
typedef void (*_cairn_preupdate_callback)(
    void *context, sqlite3 *db, int op, char const *zDb, char const *zName,
    sqlite3_int64 iKey1, sqlite3_int64 iKey2);

typedef struct _cairn_preupdate_hub {
    _cairn_preupdate_callback observer;   /* Cairn's observers, or NULL */
    void *observerContext;
    void *sessions;                       /* the session extension's list, or NULL */
} _cairn_preupdate_hub;

/* Installs the dispatcher when the hub has a callback or a session, and
 * removes it otherwise. */
void _cairn_preupdate_hub_update(sqlite3 *db, _cairn_preupdate_hub *hub);

/* sqlite3session_create and sqlite3session_delete, for a connection whose
 * pre-update hook is the hub's. SQLITE_MISUSE when the session extension is
 * not compiled in. The session type is named by its struct: the C build
 * declares it only when the extension is compiled in. */
struct sqlite3_session;
int _cairn_session_create(sqlite3 *db, _cairn_preupdate_hub *hub, const char *zDb, struct sqlite3_session **ppSession);
void _cairn_session_delete(sqlite3 *db, _cairn_preupdate_hub *hub, struct sqlite3_session *pSession);

/*
 * The virtual tables and cursors of table-valued functions written in Swift
 * (Sources/Cairn/Core/Functions/TableFunctionBridge.swift): SQLite's base
 * structure first, as SQLite requires, then the retained Swift object that
 * serves it. Allocated with sqlite3_malloc and zeroed by Swift.
 */
typedef struct _cairn_vtab {
    sqlite3_vtab base;
    void *context;
} _cairn_vtab;

typedef struct _cairn_vtab_cursor {
    sqlite3_vtab_cursor base;
    void *context;
} _cairn_vtab_cursor;

/*
 * The character data of FTS5's unicode61 tokenizer, for Cairn's word
 * tokenizer (Sources/Cairn/FTS/FTS5WordTokenizer.swift), so that both fold
 * text the same way. _cairn_fts5_unicode_category returns the general
 * category of a code point as an index: 0 unassigned, 1-4 Cc Cf Cn Cs,
 * 5-9 Ll Lm Lo Lt Lu, 10-12 Mc Me Mn, 13-15 Nd Nl No, 16-22 P*, 23-26 S*,
 * 27-29 Z*, 30 LC, 31 Co. _cairn_fts5_unicode_fold folds the case of a code
 * point and, when removeDiacritics is 1 or 2 (unicode61's remove_diacritics
 * option), removes its diacritic: it returns 0 for a combining diacritic
 * that disappears. _cairn_fts5_unicode_is_diacritic tells whether a code
 * point is one of the combining diacritics that unicode61 folds away.
 */
int _cairn_fts5_unicode_category(unsigned int code);
int _cairn_fts5_unicode_fold(int code, int removeDiacritics);
int _cairn_fts5_unicode_is_diacritic(int code);

#endif /* CAIRN_SHIMS_H */
