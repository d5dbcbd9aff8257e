/*
 * A test VFS that wraps the default one and fails chosen reads, writes or
 * syncs on demand, for the I/O fault tests of Cairn (Tests/CairnTests/
 * Engine/IOFaultTests.swift). Test support only: never linked into Cairn.
 *
 * cairn_fault_install() registers it once as the default VFS of the process.
 * It passes every call through to the previous default VFS, except for the
 * files of the directories that have a rule: a rule fails the operations it
 * is armed for, after a countdown, with the error code it is given.
 */
#ifndef CAIRN_FAULT_VFS_H
#define CAIRN_FAULT_VFS_H

/* Operations a rule can fail. */
#define CAIRN_FAULT_READ  1
#define CAIRN_FAULT_WRITE 2
#define CAIRN_FAULT_SYNC  4

/* Kinds of files a rule applies to (from the flags of xOpen). */
#define CAIRN_FAULT_MAIN_DB      1
#define CAIRN_FAULT_MAIN_JOURNAL 2
#define CAIRN_FAULT_WAL          4
#define CAIRN_FAULT_OTHER_FILE   8
#define CAIRN_FAULT_ANY_FILE    15

/* Registers the VFS as the default one, once. Returns an SQLite result code. */
int cairn_fault_install(void);

/* Creates a rule for the files of `directory` (a path prefix), disarmed.
** Call it before opening the database. Returns the rule, or -1. */
int cairn_fault_rule_create(const char *directory);

/* Arms a rule: after `countdown` successful operations of the given kinds,
** on the given kinds of files, the next one fails with `errorCode`; when
** `persistent` is non-zero, all the following ones fail too, until
** cairn_fault_rule_disarm(). */
void cairn_fault_rule_arm(int rule, int operations, int fileKinds, int countdown, int errorCode, int persistent);

/* Stops the faults of a rule. */
void cairn_fault_rule_disarm(int rule);

/* The number of faults a rule injected since it was created. */
int cairn_fault_rule_fault_count(int rule);

#endif /* CAIRN_FAULT_VFS_H */
