/*
 * Umbrella header of the CairnSQLite module: the vendored SQLite C interface,
 * seen with the same compile options as the C build, plus a few inline shims
 * for what Swift cannot call or import directly.
 */
#ifndef CAIRN_SQLITE_H
#define CAIRN_SQLITE_H

#include "cairn_sqlite_config.h"
#include "sqlite3.h"

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
 * The fts5_api of a connection, or NULL: "SELECT fts5(?1)" with the pointer
 * bound with the "fts5_api_ptr" type (https://www.sqlite.org/fts5.html#extending_fts5).
 * The type string must outlive the statement, hence a C helper.
 */
fts5_api *_cairn_fts5_api(sqlite3 *db);

#endif /* CAIRN_SQLITE_H */
