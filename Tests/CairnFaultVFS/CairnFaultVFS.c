/* See include/CairnFaultVFS.h. */
#include "CairnFaultVFS.h"
#include "CairnSQLite.h"
#include <pthread.h>
#include <string.h>

#define MAX_RULES 128

typedef struct Rule {
    char directory[1024];
    int operations;     /* CAIRN_FAULT_READ | ... */
    int fileKinds;      /* CAIRN_FAULT_MAIN_DB | ... */
    int countdown;      /* successes left before a fault */
    int errorCode;
    int persistent;
    int armed;
    int faults;
} Rule;

/* Rules are never reused: files keep a pointer to theirs. */
static Rule rules[MAX_RULES];
static int ruleCount = 0;
static pthread_mutex_t rulesMutex = PTHREAD_MUTEX_INITIALIZER;

static sqlite3_vfs *realVFS = 0;
static sqlite3_vfs faultVFS;

typedef struct FaultFile {
    sqlite3_file base;
    Rule *rule;         /* NULL: pass through */
    int kind;
    sqlite3_file *real; /* follows this struct */
} FaultFile;

/* Whether an operation of `file` fails now. */
static int shouldFail(FaultFile *file, int operation) {
    Rule *rule = file->rule;
    if (rule == 0 || !__atomic_load_n(&rule->armed, __ATOMIC_SEQ_CST)) return 0;
    if (!(rule->operations & operation) || !(rule->fileKinds & file->kind)) return 0;
    int remaining = __atomic_sub_fetch(&rule->countdown, 1, __ATOMIC_SEQ_CST);
    if (remaining >= 0) return 0;
    if (!rule->persistent) {
        if (remaining != -1) return 0;
        __atomic_store_n(&rule->armed, 0, __ATOMIC_SEQ_CST);
    }
    __atomic_add_fetch(&rule->faults, 1, __ATOMIC_SEQ_CST);
    return 1;
}

static int faultClose(sqlite3_file *pFile) {
    FaultFile *file = (FaultFile *)pFile;
    return file->real->pMethods->xClose(file->real);
}

static int faultRead(sqlite3_file *pFile, void *buffer, int amount, sqlite3_int64 offset) {
    FaultFile *file = (FaultFile *)pFile;
    if (shouldFail(file, CAIRN_FAULT_READ)) return file->rule->errorCode;
    return file->real->pMethods->xRead(file->real, buffer, amount, offset);
}

static int faultWrite(sqlite3_file *pFile, const void *buffer, int amount, sqlite3_int64 offset) {
    FaultFile *file = (FaultFile *)pFile;
    if (shouldFail(file, CAIRN_FAULT_WRITE)) return file->rule->errorCode;
    return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
}

static int faultTruncate(sqlite3_file *pFile, sqlite3_int64 size) {
    FaultFile *file = (FaultFile *)pFile;
    if (shouldFail(file, CAIRN_FAULT_WRITE)) return file->rule->errorCode;
    return file->real->pMethods->xTruncate(file->real, size);
}

static int faultSync(sqlite3_file *pFile, int flags) {
    FaultFile *file = (FaultFile *)pFile;
    if (shouldFail(file, CAIRN_FAULT_SYNC)) return file->rule->errorCode;
    return file->real->pMethods->xSync(file->real, flags);
}

static int faultFileSize(sqlite3_file *pFile, sqlite3_int64 *size) {
    FaultFile *file = (FaultFile *)pFile;
    return file->real->pMethods->xFileSize(file->real, size);
}

static int faultLock(sqlite3_file *pFile, int lock) {
    FaultFile *file = (FaultFile *)pFile;
    return file->real->pMethods->xLock(file->real, lock);
}

static int faultUnlock(sqlite3_file *pFile, int lock) {
    FaultFile *file = (FaultFile *)pFile;
    return file->real->pMethods->xUnlock(file->real, lock);
}

static int faultCheckReservedLock(sqlite3_file *pFile, int *result) {
    FaultFile *file = (FaultFile *)pFile;
    return file->real->pMethods->xCheckReservedLock(file->real, result);
}

static int faultFileControl(sqlite3_file *pFile, int op, void *arg) {
    FaultFile *file = (FaultFile *)pFile;
    return file->real->pMethods->xFileControl(file->real, op, arg);
}

static int faultSectorSize(sqlite3_file *pFile) {
    FaultFile *file = (FaultFile *)pFile;
    return file->real->pMethods->xSectorSize(file->real);
}

static int faultDeviceCharacteristics(sqlite3_file *pFile) {
    FaultFile *file = (FaultFile *)pFile;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int faultShmMap(sqlite3_file *pFile, int region, int size, int extend, void volatile **pp) {
    FaultFile *file = (FaultFile *)pFile;
    return file->real->pMethods->xShmMap(file->real, region, size, extend, pp);
}

static int faultShmLock(sqlite3_file *pFile, int offset, int n, int flags) {
    FaultFile *file = (FaultFile *)pFile;
    return file->real->pMethods->xShmLock(file->real, offset, n, flags);
}

static void faultShmBarrier(sqlite3_file *pFile) {
    FaultFile *file = (FaultFile *)pFile;
    file->real->pMethods->xShmBarrier(file->real);
}

static int faultShmUnmap(sqlite3_file *pFile, int deleteFlag) {
    FaultFile *file = (FaultFile *)pFile;
    return file->real->pMethods->xShmUnmap(file->real, deleteFlag);
}

static int faultFetch(sqlite3_file *pFile, sqlite3_int64 offset, int amount, void **pp) {
    FaultFile *file = (FaultFile *)pFile;
    return file->real->pMethods->xFetch(file->real, offset, amount, pp);
}

static int faultUnfetch(sqlite3_file *pFile, sqlite3_int64 offset, void *p) {
    FaultFile *file = (FaultFile *)pFile;
    return file->real->pMethods->xUnfetch(file->real, offset, p);
}

static const sqlite3_io_methods faultMethods = {
    3,
    faultClose, faultRead, faultWrite, faultTruncate, faultSync, faultFileSize,
    faultLock, faultUnlock, faultCheckReservedLock, faultFileControl,
    faultSectorSize, faultDeviceCharacteristics,
    faultShmMap, faultShmLock, faultShmBarrier, faultShmUnmap,
    faultFetch, faultUnfetch,
};

/* The rule of a file path, if any. */
static Rule *ruleForPath(const char *path) {
    Rule *found = 0;
    if (path == 0) return 0;
    pthread_mutex_lock(&rulesMutex);
    for (int i = 0; i < ruleCount; i++) {
        size_t length = strlen(rules[i].directory);
        if (strncmp(path, rules[i].directory, length) == 0) {
            found = &rules[i];
            break;
        }
    }
    pthread_mutex_unlock(&rulesMutex);
    return found;
}

static int faultOpen(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *pFile, int flags, int *outFlags) {
    FaultFile *file = (FaultFile *)pFile;
    (void)vfs;
    memset(file, 0, sizeof(FaultFile));
    file->real = (sqlite3_file *)&file[1];
    int rc = realVFS->xOpen(realVFS, name, file->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        file->base.pMethods = 0;
        return rc;
    }
    if (file->real->pMethods == 0 || file->real->pMethods->iVersion < 3) {
        /* Pass-through is only written for version 3 methods. */
        file->real->pMethods->xClose(file->real);
        file->base.pMethods = 0;
        return SQLITE_CANTOPEN;
    }
    file->rule = ruleForPath(name);
    if (flags & SQLITE_OPEN_MAIN_DB) file->kind = CAIRN_FAULT_MAIN_DB;
    else if (flags & SQLITE_OPEN_MAIN_JOURNAL) file->kind = CAIRN_FAULT_MAIN_JOURNAL;
    else if (flags & SQLITE_OPEN_WAL) file->kind = CAIRN_FAULT_WAL;
    else file->kind = CAIRN_FAULT_OTHER_FILE;
    file->base.pMethods = &faultMethods;
    return SQLITE_OK;
}

static int faultDelete(sqlite3_vfs *vfs, const char *name, int syncDir) {
    (void)vfs;
    return realVFS->xDelete(realVFS, name, syncDir);
}

static int faultAccess(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return realVFS->xAccess(realVFS, name, flags, result);
}

static int faultFullPathname(sqlite3_vfs *vfs, const char *name, int n, char *out) {
    (void)vfs;
    return realVFS->xFullPathname(realVFS, name, n, out);
}

static void *faultDlOpen(sqlite3_vfs *vfs, const char *name) { (void)vfs; return realVFS->xDlOpen(realVFS, name); }
static void faultDlError(sqlite3_vfs *vfs, int n, char *message) { (void)vfs; realVFS->xDlError(realVFS, n, message); }
static void (*faultDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return realVFS->xDlSym(realVFS, handle, symbol);
}
static void faultDlClose(sqlite3_vfs *vfs, void *handle) { (void)vfs; realVFS->xDlClose(realVFS, handle); }
static int faultRandomness(sqlite3_vfs *vfs, int n, char *out) { (void)vfs; return realVFS->xRandomness(realVFS, n, out); }
static int faultSleep(sqlite3_vfs *vfs, int microseconds) { (void)vfs; return realVFS->xSleep(realVFS, microseconds); }
static int faultCurrentTime(sqlite3_vfs *vfs, double *now) { (void)vfs; return realVFS->xCurrentTime(realVFS, now); }
static int faultGetLastError(sqlite3_vfs *vfs, int n, char *out) { (void)vfs; return realVFS->xGetLastError(realVFS, n, out); }
static int faultCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    (void)vfs;
    return realVFS->xCurrentTimeInt64(realVFS, now);
}

static pthread_once_t installOnce = PTHREAD_ONCE_INIT;
static int installResult = SQLITE_ERROR;

static void install(void) {
    sqlite3_initialize();
#ifdef SQLITE_HAS_CODEC
    /* The default VFS of SQLite3 Multiple Ciphers is its encryption layer
    ** over "unix": the fault VFS goes under that layer (see below). */
    realVFS = sqlite3_vfs_find("unix");
#else
    realVFS = sqlite3_vfs_find(0);
#endif
    if (realVFS == 0 || realVFS->iVersion < 2) return;
    memset(&faultVFS, 0, sizeof(faultVFS));
    faultVFS.iVersion = 2;
    faultVFS.szOsFile = (int)sizeof(FaultFile) + realVFS->szOsFile;
    faultVFS.mxPathname = realVFS->mxPathname;
    faultVFS.zName = "cairn-fault";
    faultVFS.xOpen = faultOpen;
    faultVFS.xDelete = faultDelete;
    faultVFS.xAccess = faultAccess;
    faultVFS.xFullPathname = faultFullPathname;
    faultVFS.xDlOpen = faultDlOpen;
    faultVFS.xDlError = faultDlError;
    faultVFS.xDlSym = faultDlSym;
    faultVFS.xDlClose = faultDlClose;
    faultVFS.xRandomness = faultRandomness;
    faultVFS.xSleep = faultSleep;
    faultVFS.xCurrentTime = faultCurrentTime;
    faultVFS.xGetLastError = faultGetLastError;
    faultVFS.xCurrentTimeInt64 = faultCurrentTimeInt64;
    installResult = sqlite3_vfs_register(&faultVFS, 1);
#ifdef SQLITE_HAS_CODEC
    /* SQLite3 Multiple Ciphers encrypts through its own VFS, which must be
    ** the top of the stack: put one on top of the fault VFS, as the default,
    ** so that encrypted connections opened afterwards stay encrypted. */
    if (installResult == SQLITE_OK) {
        installResult = sqlite3mc_vfs_create(faultVFS.zName, 1);
    }
#endif
}

int cairn_fault_install(void) {
    pthread_once(&installOnce, install);
    return installResult;
}

int cairn_fault_rule_create(const char *directory) {
    int rule = -1;
    if (strlen(directory) >= sizeof(rules[0].directory)) return -1;
    pthread_mutex_lock(&rulesMutex);
    if (ruleCount < MAX_RULES) {
        rule = ruleCount++;
        memset(&rules[rule], 0, sizeof(Rule));
        strcpy(rules[rule].directory, directory);
    }
    pthread_mutex_unlock(&rulesMutex);
    return rule;
}

void cairn_fault_rule_arm(int rule, int operations, int fileKinds, int countdown, int errorCode, int persistent) {
    if (rule < 0 || rule >= MAX_RULES) return;
    Rule *r = &rules[rule];
    __atomic_store_n(&r->armed, 0, __ATOMIC_SEQ_CST);
    r->operations = operations;
    r->fileKinds = fileKinds;
    r->errorCode = errorCode;
    r->persistent = persistent;
    __atomic_store_n(&r->countdown, countdown, __ATOMIC_SEQ_CST);
    __atomic_store_n(&r->armed, 1, __ATOMIC_SEQ_CST);
}

void cairn_fault_rule_disarm(int rule) {
    if (rule < 0 || rule >= MAX_RULES) return;
    __atomic_store_n(&rules[rule].armed, 0, __ATOMIC_SEQ_CST);
}

int cairn_fault_rule_fault_count(int rule) {
    if (rule < 0 || rule >= MAX_RULES) return 0;
    return __atomic_load_n(&rules[rule].faults, __ATOMIC_SEQ_CST);
}
