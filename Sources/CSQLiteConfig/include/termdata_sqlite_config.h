#ifndef TERMDATA_SQLITE_CONFIG_H
#define TERMDATA_SQLITE_CONFIG_H

/// Turns the triggers of one SQLite connection (a `sqlite3 *`) on or off, as
/// `sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, ...)` does: a variadic call, which
/// Swift cannot make. Other connections to the same file keep theirs. Statements prepared
/// before a change are prepared again at their next step, with the triggers as they are
/// then. Returns SQLite's result code.
int termdata_sqlite_enable_triggers(void *db, int enabled);

#endif
