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

#endif /* CAIRN_SQLITE_H */
