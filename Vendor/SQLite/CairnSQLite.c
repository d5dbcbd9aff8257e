/*
 * The one translation unit of the CairnSQLite target: the always-on options
 * first, then the pristine amalgamation. Optional options (SwiftPM traits)
 * arrive as -D flags from Package.swift.
 */
#include "cairn_sqlite_config.h"
#include "sqlite3.c"
