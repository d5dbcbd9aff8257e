// Must NOT compile: `import Cairn` gives SQLite's C interface, not Cairn's C
// helpers. Scripts/check-consumer.sh builds this target and expects an error
// for each `_cairn_` name, and none for sqlite3_libversion_number.
import Cairn

let version = sqlite3_libversion_number()
let word = _cairn_atomic_load_u64(nil)
let type = _cairn_column_numeric(nil, 0, nil, nil)
let hub: _cairn_preupdate_hub? = nil
