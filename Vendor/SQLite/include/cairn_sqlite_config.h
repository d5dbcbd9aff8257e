/*
 * Cairn's always-on SQLite compile options: the single source of truth.
 *
 * This header is included by BOTH the C translation unit that compiles the
 * amalgamation (CairnSQLite.c) and the module's umbrella header
 * (CairnSQLite.h), so the C build and what the Swift importer sees can never
 * disagree. For instance sqlite3.h declares the sqlite3_preupdate_* functions
 * only when SQLITE_ENABLE_PREUPDATE_HOOK is defined where it is included.
 *
 * Optional options are SwiftPM traits (see Package.swift): they are defined on
 * the command line, never here.
 */
#ifndef CAIRN_SQLITE_CONFIG_H
#define CAIRN_SQLITE_CONFIG_H

/* Features Cairn is built around. */
#define SQLITE_ENABLE_FTS5 1
#define SQLITE_ENABLE_SNAPSHOT 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1

/* Sound defaults for an application build. */
#define SQLITE_ENABLE_FTS3 1
#define SQLITE_ENABLE_FTS3_PARENTHESIS 1
#define SQLITE_ENABLE_FTS4 1
#define SQLITE_ENABLE_RTREE 1
#define SQLITE_ENABLE_MATH_FUNCTIONS 1
#define SQLITE_ENABLE_COLUMN_METADATA 1
#define SQLITE_ENABLE_API_ARMOR 1
#define SQLITE_DQS 0
#define SQLITE_DEFAULT_MEMSTATUS 0
#define SQLITE_OMIT_DEPRECATED 1
#define SQLITE_LIKE_DOESNT_MATCH_BLOBS 1

/*
 * Multi-thread mode: a connection is never used by two threads at the same
 * time, because Cairn serializes every access to a connection (DatabaseQueue,
 * and each connection of a pool, run on one serial dispatch queue). The
 * per-connection mutexes of serialized mode would only cost time.
 */
#define SQLITE_THREADSAFE 2

/* Platform facilities: sub-second busy sleeps, thread-safe localtime. */
#define HAVE_USLEEP 1
#define HAVE_LOCALTIME_R 1

#endif /* CAIRN_SQLITE_CONFIG_H */
