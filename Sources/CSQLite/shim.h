#include <sqlite3.h>

/// Turns off SQLite's memory statistics, which take one process-wide mutex on every allocation
/// and free: with connections on several threads, that mutex was the one lock every request
/// contended for. Must run before the first connection opens (sqlite3_config is variadic, so
/// Swift cannot call it directly); returns SQLITE_MISUSE when SQLite is already initialized.
static inline int cognate_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
