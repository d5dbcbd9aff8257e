// `import Cairn` also gives access to the SQLite C interface of the vendored
// build (sqlite3_* functions and constants), as the GRDB guides promise for
// `import GRDB`.
@_exported import CairnSQLite
