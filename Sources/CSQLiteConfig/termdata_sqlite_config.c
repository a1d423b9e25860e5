#include <sqlite3.h>
#include "termdata_sqlite_config.h"

int termdata_sqlite_enable_triggers(void *db, int enabled) {
    int now = -1;
    return sqlite3_db_config((sqlite3 *)db, SQLITE_DBCONFIG_ENABLE_TRIGGER, enabled ? 1 : 0, &now);
}
