/*
 * The one translation unit of the CairnSQLite target: the always-on options
 * first, then the pristine amalgamation (the stock one, or with the trait
 * SQLITE_HAS_CODEC the one of SQLite3 Multiple Ciphers). Optional options (SwiftPM traits)
 * arrive as -D flags from Package.swift.
 */
#include "cairn_sqlite_config.h"
#ifdef SQLITE_HAS_CODEC
/* Trait SQLITE_HAS_CODEC: the SQLite3 Multiple Ciphers amalgamation, which
** holds the same SQLite (3.50.4) and its encryption extension. */
#include "sqlite3mc.c"
#else
#include "sqlite3.c"
#endif
/* The declarations of the functions below, and the hub's layout (after the
** amalgamation, whose sqlite3.h guard makes the header's include of it a
** no-op). */
#include "CairnShims.h"

#ifdef SQLITE_HAS_CODEC
/*
 * Read errors through the VFS of SQLite3 Multiple Ciphers (2.2.4).
 *
 * Its xRead (mcIoRead) passes a short read through, but lets the decryption
 * step overwrite any other error of the real file with SQLITE_OK: a failed
 * read of a page (SQLITE_IOERR_READ, EIO) then reads as whatever the buffer
 * held, which the pager caches and may write back. The function below is
 * mcIoRead with that error returned, installed in place of it in the three
 * method tables of the extension (they are static, in this translation
 * unit) before any file opens. The vendored file is not edited.
 */
static int cairnMcIoRead(sqlite3_file* pFile, void* buffer, int count, sqlite3_int64 offset){
  sqlite3mc_file* mcFile = (sqlite3mc_file*) pFile;
  int rc = REALFILE(pFile)->pMethods->xRead(REALFILE(pFile), buffer, count, offset);
  if( rc!=SQLITE_OK ) return rc;
  if( mcFile->openFlags & SQLITE_OPEN_MAIN_DB ){
    rc = mcReadMainDb(pFile, buffer, count, offset);
  }else if( mcFile->openFlags & SQLITE_OPEN_MAIN_JOURNAL ){
    rc = mcReadMainJournal(pFile, buffer, count, offset);
  }else if( mcFile->openFlags & SQLITE_OPEN_SUBJOURNAL ){
    rc = mcReadSubJournal(pFile, buffer, count, offset);
  }else if( mcFile->openFlags & SQLITE_OPEN_WAL ){
    rc = mcReadWal(pFile, buffer, count, offset);
  }
  return rc;
}

__attribute__((constructor)) static void cairnInstallMcIoRead(void){
  mcIoMethodsGlobal1.xRead = cairnMcIoRead;
  mcIoMethodsGlobal2.xRead = cairnMcIoRead;
  mcIoMethodsGlobal3.xRead = cairnMcIoRead;
}
#endif

/* Declared in CairnShims.h: Cairn's thread-local slots, whose address also
 * identifies the current thread. */
_Thread_local struct _cairn_thread_storage _cairn_thread_storage;

/*
 * Fast column readers. They live in this translation unit, after the
 * amalgamation, so that they read the current row of a statement in one call,
 * with the same conversions as the public sqlite3_column_* functions but
 * without their repeated column lookups. Declared in CairnShims.h.
 */

/* The current row's value of column i, or NULL if there is none. */
static Mem *cairnColumnMem(sqlite3_stmt *pStmt, int i){
  Vdbe *p = (Vdbe *)pStmt;
  if( p==0 || p->pResultRow==0 || i<0 || i>=p->nResColumn ) return 0;
  return &p->pResultRow[i];
}

int _cairn_column_number(sqlite3_stmt *pStmt, int i, sqlite3_int64 *pInt, double *pReal){
  Mem *pMem = cairnColumnMem(pStmt, i);
  int type;
  if( pMem==0 ) return SQLITE_NULL;
  type = sqlite3_value_type(pMem);
  if( type==SQLITE_INTEGER ){
    *pInt = sqlite3VdbeIntValue(pMem);
  }else if( type==SQLITE_FLOAT ){
    *pReal = sqlite3VdbeRealValue(pMem);
  }
  return type;
}

int _cairn_column_text(sqlite3_stmt *pStmt, int i, const unsigned char **pText, int *pCount){
  Mem *pMem = cairnColumnMem(pStmt, i);
  int type;
  if( pMem==0 ) return SQLITE_NULL;
  type = sqlite3_value_type(pMem);
  if( type==SQLITE_TEXT ){
    *pText = sqlite3_value_text(pMem);
    *pCount = sqlite3_value_bytes(pMem);
    if( *pText==0 && pMem->db ){
      /* Out of memory: report it as the column's error, as the public
      ** functions do. */
      sqlite3OomClear(pMem->db);
      return SQLITE_NOMEM;
    }
  }
  return type;
}

/* The number that the TEXT value pMem spells, as NUMERIC affinity reads it
** (https://www.sqlite.org/datatype3.html#type_affinity): sqlite3AtoF accepts
** the whole text, spaces around it included, or nothing. Out of line: the
** readers of numbers keep their fast path short. */
static SQLITE_NOINLINE int cairnTextNumber(Mem *pMem, sqlite3_int64 *pInt, double *pReal){
  const char *z;
  int n, rc;
  double r = 0.0;
  z = (const char *)sqlite3_value_text(pMem);
  n = sqlite3_value_bytes(pMem);
  if( z==0 ){
    if( pMem->db ) sqlite3OomClear(pMem->db);
    return SQLITE_NOMEM;
  }
  rc = sqlite3AtoF(z, &r, n, SQLITE_UTF8);
  if( rc<=0 ) return SQLITE_TEXT;
  if( rc==1 && sqlite3Atoi64(z, pInt, n, SQLITE_UTF8)==0 ) return SQLITE_INTEGER;
  *pReal = r;
  return SQLITE_FLOAT;
}

int _cairn_column_text_number(sqlite3_stmt *pStmt, int i, sqlite3_int64 *pInt, double *pReal){
  Mem *pMem = cairnColumnMem(pStmt, i);
  if( pMem==0 || sqlite3_value_type(pMem)!=SQLITE_TEXT ) return SQLITE_NULL;
  return cairnTextNumber(pMem, pInt, pReal);
}

/* Declared in CairnShims.h: _cairn_column_number, and for TEXT the number
** that the text spells. */
int _cairn_column_numeric(sqlite3_stmt *pStmt, int i, sqlite3_int64 *pInt, double *pReal){
  Mem *pMem = cairnColumnMem(pStmt, i);
  int type;
  if( pMem==0 ) return SQLITE_NULL;
  type = sqlite3_value_type(pMem);
  if( type==SQLITE_INTEGER ){
    *pInt = sqlite3VdbeIntValue(pMem);
  }else if( type==SQLITE_FLOAT ){
    *pReal = sqlite3VdbeRealValue(pMem);
  }else if( type==SQLITE_TEXT ){
    return cairnTextNumber(pMem, pInt, pReal);
  }
  return type;
}

/* Declared in CairnShims.h. The same text as sqlite3_column_text gives
** for a number (see vdbeMemRenderNum), without converting the column. */
int _cairn_column_number_text(sqlite3_stmt *pStmt, int i, char *zBuf, int nBuf){
  Mem *pMem = cairnColumnMem(pStmt, i);
  int type;
  if( pMem==0 || nBuf<=0 ) return 0;
  type = sqlite3_value_type(pMem);
  if( type==SQLITE_INTEGER ){
    sqlite3_snprintf(nBuf, zBuf, "%lld", sqlite3VdbeIntValue(pMem));
  }else if( type==SQLITE_FLOAT ){
    sqlite3_snprintf(nBuf, zBuf, "%!.15g", sqlite3VdbeRealValue(pMem));
  }else{
    return 0;
  }
  return (int)strlen(zBuf);
}

int _cairn_column_type(sqlite3_stmt *pStmt, int i){
  Mem *pMem = cairnColumnMem(pStmt, i);
  return pMem ? sqlite3_value_type(pMem) : SQLITE_NULL;
}

/* Declared in CairnShims.h. */
fts5_api *_cairn_fts5_api(sqlite3 *db){
  fts5_api *pApi = 0;
  sqlite3_stmt *pStmt = 0;
  if( sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &pStmt, 0)==SQLITE_OK ){
    sqlite3_bind_pointer(pStmt, 1, (void*)&pApi, "fts5_api_ptr", 0);
    sqlite3_step(pStmt);
  }
  sqlite3_finalize(pStmt);
  return pApi;
}

/*
 * The shared pre-update hook (see CairnShims.h). The session extension's
 * hook, xPreUpdate, is a static function of the amalgamation, reachable from
 * this translation unit only.
 */
static void cairnPreupdateDispatch(
  void *pCtx, sqlite3 *db, int op, char const *zDb, char const *zName,
  sqlite3_int64 iKey1, sqlite3_int64 iKey2
){
  _cairn_preupdate_hub *pHub = (_cairn_preupdate_hub*)pCtx;
  if( pHub->observer ){
    pHub->observer(pHub->observerContext, db, op, zDb, zName, iKey1, iKey2);
  }
#ifdef SQLITE_ENABLE_SESSION
  if( pHub->sessions ){
    xPreUpdate(pHub->sessions, db, op, zDb, zName, iKey1, iKey2);
  }
#endif
}

void _cairn_preupdate_hub_update(sqlite3 *db, _cairn_preupdate_hub *pHub){
  if( pHub->observer || pHub->sessions ){
    sqlite3_preupdate_hook(db, cairnPreupdateDispatch, pHub);
  }else{
    sqlite3_preupdate_hook(db, 0, 0);
  }
}

int _cairn_session_create(sqlite3 *db, _cairn_preupdate_hub *pHub, const char *zDb, struct sqlite3_session **ppSession){
#ifdef SQLITE_ENABLE_SESSION
  int rc;
  /* The session extension finds its list of sessions in the hook's context,
  ** and leaves the new list there. */
  sqlite3_preupdate_hook(db, pHub->sessions ? xPreUpdate : 0, pHub->sessions);
  rc = sqlite3session_create(db, zDb, ppSession);
  pHub->sessions = sqlite3_preupdate_hook(db, 0, 0);
  _cairn_preupdate_hub_update(db, pHub);
  return rc;
#else
  (void)db; (void)pHub; (void)zDb;
  *ppSession = 0;
  return SQLITE_MISUSE;
#endif
}

void _cairn_session_delete(sqlite3 *db, _cairn_preupdate_hub *pHub, struct sqlite3_session *pSession){
#ifdef SQLITE_ENABLE_SESSION
  sqlite3_preupdate_hook(db, pHub->sessions ? xPreUpdate : 0, pHub->sessions);
  sqlite3session_delete(pSession);
  pHub->sessions = sqlite3_preupdate_hook(db, 0, 0);
  _cairn_preupdate_hub_update(db, pHub);
#else
  (void)db; (void)pHub; (void)pSession;
#endif
}


int _cairn_fts5_unicode_category(unsigned int code){
  return sqlite3Fts5UnicodeCategory((u32)code);
}

int _cairn_fts5_unicode_fold(int code, int removeDiacritics){
  return sqlite3Fts5UnicodeFold(code, removeDiacritics);
}

int _cairn_fts5_unicode_is_diacritic(int code){
  return sqlite3Fts5UnicodeIsdiacritic(code);
}
