/*
 * Umbrella header of the CairnSQLite module: the vendored SQLite C interface,
 * seen with the same compile options as the C build. `import Cairn`
 * re-exports this module, and only this one: Cairn's own helpers are in
 * CairnShims.h (module CairnSQLiteShims), which Cairn imports without
 * re-exporting it.
 */
#ifndef CAIRN_SQLITE_H
#define CAIRN_SQLITE_H

#include "cairn_sqlite_config.h"

/*
 * The session extension (trait SQLITE_ENABLE_SESSION) is declared for every
 * importer, whatever its own compile options: SwiftPM does not pass the
 * defines of a package's traits to the targets of the packages that depend
 * on it, so a consumer that enables the trait would otherwise not see the
 * functions it compiled in. The functions exist only when the trait compiled
 * them: without it, calling one fails at link time. The C build
 * (CairnSQLite.c) includes this header only after the amalgamation, whose
 * own copy of sqlite3.h already ran: the define below never compiles the
 * extension in, and is undone at once.
 */
#ifndef SQLITE_ENABLE_SESSION
#  define SQLITE_ENABLE_SESSION 1
#  define CAIRN_SESSION_DECLARED_ONLY 1
#endif
#include "sqlite3.h"
#ifdef CAIRN_SESSION_DECLARED_ONLY
#  undef SQLITE_ENABLE_SESSION
#  undef CAIRN_SESSION_DECLARED_ONLY
#endif

/*
 * The encryption API of SQLite3 Multiple Ciphers (trait SQLITE_HAS_CODEC),
 * declared for every importer for the same reason as the session extension:
 * the functions exist only when the trait compiled sqlite3mc.c in (see
 * CairnSQLite.c); without it, calling one fails at link time. The C build
 * includes this header after the amalgamation, so the compiler checks these
 * declarations against the amalgamation's own.
 * https://utelle.github.io/SQLite3MultipleCiphers/docs/configuration/config_capi/
 */
int sqlite3_key(sqlite3 *db, const void *pKey, int nKey);
int sqlite3_key_v2(sqlite3 *db, const char *zDbName, const void *pKey, int nKey);
int sqlite3_rekey(sqlite3 *db, const void *pKey, int nKey);
int sqlite3_rekey_v2(sqlite3 *db, const char *zDbName, const void *pKey, int nKey);
int sqlite3mc_cipher_count(void);
int sqlite3mc_cipher_index(const char *cipherName);
const char *sqlite3mc_cipher_name(int cipherIndex);
int sqlite3mc_config(sqlite3 *db, const char *paramName, int newValue);
int sqlite3mc_config_cipher(sqlite3 *db, const char *cipherName, const char *paramName, int newValue);
unsigned char *sqlite3mc_codec_data(sqlite3 *db, const char *zDbName, const char *paramName);
const char *sqlite3mc_version(void);
int sqlite3mc_vfs_create(const char *zVfsReal, int makeDefault);
void sqlite3mc_vfs_destroy(const char *zName);

#endif /* CAIRN_SQLITE_H */
