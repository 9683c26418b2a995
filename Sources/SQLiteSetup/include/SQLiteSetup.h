#ifndef ENCORE_SQLITE_SETUP_H
#define ENCORE_SQLITE_SETUP_H

/// Puts SQLite in multi-thread mode without memory statistics; must run before the
/// process opens its first connection (SQLite refuses afterwards, changing nothing).
/// Returns SQLite's result code. A C function because `sqlite3_config` is variadic,
/// which Swift cannot call.
int encore_sqlite_setup(void);

#endif
