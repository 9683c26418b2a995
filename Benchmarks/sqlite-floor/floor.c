// What SQLite alone costs to write a catalog's events, one row per statement, as an ingest
// does: no Swift, no GRDB, no parsing. Copies the rows of an existing catalog (one
// `encore-bench --keep` left, say) into a fresh catalog with the same schema and prints
// the time per table, then the same rows copied in one INSERT ... SELECT per table.
//
//   cc -O2 -o /tmp/sqlite-floor Benchmarks/sqlite-floor/floor.c -lsqlite3
//   /tmp/sqlite-floor CATALOG SCRATCH_DIRECTORY [SAVEPOINT_EVERY]
//
// With SAVEPOINT_EVERY, the one-row-at-a-time inserts run inside a savepoint released and
// taken again every that many rows: what an open savepoint costs (SQLite copies each
// database page a statement first changes into the savepoint's journal).
//
// If the one-row-at-a-time figures add up to most of an ingest's budget, no amount of
// work on the code around the statements meets it: the rows must be written in sets.
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int count, columns;
    sqlite3_value ***rows;
} Rows;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void check(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static Rows load(sqlite3 *db, const char *sql) {
    Rows r = {0};
    sqlite3_stmt *s;
    check(sqlite3_prepare_v2(db, sql, -1, &s, 0), db, sql);
    r.columns = sqlite3_column_count(s);
    int capacity = 1024;
    r.rows = malloc(capacity * sizeof *r.rows);
    while (sqlite3_step(s) == SQLITE_ROW) {
        if (r.count == capacity) r.rows = realloc(r.rows, (capacity *= 2) * sizeof *r.rows);
        r.rows[r.count] = malloc(r.columns * sizeof **r.rows);
        for (int c = 0; c < r.columns; c++) r.rows[r.count][c] = sqlite3_value_dup(sqlite3_column_value(s, c));
        r.count++;
    }
    sqlite3_finalize(s);
    return r;
}

// A fresh catalog with the source's schema, its metro areas, venues and artists copied,
// and (for the lineup) its events: what the timed rows refer to.
static sqlite3 *fresh(const char *catalog, const char *path, const char *schema, int withEvents) {
    char sql[4096];
    const char *suffixes[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; i++) {
        snprintf(sql, sizeof sql, "%s%s", path, suffixes[i]);
        remove(sql);
    }
    sqlite3 *db;
    check(sqlite3_open(path, &db), db, path);
    check(sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536;"
                           "PRAGMA foreign_keys = ON;", 0, 0, 0), db, "pragmas");
    check(sqlite3_exec(db, schema, 0, 0, 0), db, "schema");
    snprintf(sql, sizeof sql,
             "ATTACH '%s' AS source; INSERT INTO main.metro_area SELECT * FROM source.metro_area;"
             "INSERT INTO main.venue SELECT * FROM source.venue; INSERT INTO main.artist SELECT * FROM source.artist;"
             "%s DETACH source;", catalog, withEvents ? "INSERT INTO main.event SELECT * FROM source.event;" : "");
    check(sqlite3_exec(db, sql, 0, 0, 0), db, "copying what the rows refer to");
    return db;
}

// Inserts every row with one statement execution each, committing every 2,500 rows (an
// ingest commits a group of pages about once a second). `newID`: bind NULL for column 0,
// so the table assigns ids as an ingest's inserts do.
static int savepointEvery = 0;

static void oneRowAtATime(const char *catalog, const char *path, const char *schema, const char *table, Rows rows,
                          int newID) {
    sqlite3 *db = fresh(catalog, path, schema, strcmp(table, "lineup") == 0);
    char sql[1024] = "";
    snprintf(sql, sizeof sql, "INSERT INTO %s VALUES (?", table);
    for (int c = 1; c < rows.columns; c++) strcat(sql, ", ?");
    strcat(sql, ")");
    sqlite3_stmt *insert;
    check(sqlite3_prepare_v2(db, sql, -1, &insert, 0), db, sql);
    double start = now();
    check(sqlite3_exec(db, "BEGIN", 0, 0, 0), db, "begin");
    if (savepointEvery) check(sqlite3_exec(db, "SAVEPOINT floor", 0, 0, 0), db, "savepoint");
    for (int i = 0; i < rows.count; i++) {
        for (int c = 0; c < rows.columns; c++) {
            if (c == 0 && newID) sqlite3_bind_null(insert, 1);
            else sqlite3_bind_value(insert, c + 1, rows.rows[i][c]);
        }
        check(sqlite3_step(insert), db, table);
        sqlite3_reset(insert);
        if (i % 2500 == 2499) {
            check(sqlite3_exec(db, "COMMIT; BEGIN", 0, 0, 0), db, "commit");
            if (savepointEvery) check(sqlite3_exec(db, "SAVEPOINT floor", 0, 0, 0), db, "savepoint");
        } else if (savepointEvery && i % savepointEvery == savepointEvery - 1) {
            check(sqlite3_exec(db, "RELEASE floor; SAVEPOINT floor", 0, 0, 0), db, "savepoint");
        }
    }
    check(sqlite3_exec(db, "COMMIT", 0, 0, 0), db, "commit");
    double seconds = now() - start;
    printf("  %-14s one row a statement: %6.2f s for %7d rows (%5.2f us a row)\n", table, seconds, rows.count,
           seconds * 1e6 / rows.count);
    sqlite3_finalize(insert);
    sqlite3_close(db);
}

static void allAtOnce(const char *catalog, const char *path, const char *schema, const char *table, const char *select) {
    sqlite3 *db = fresh(catalog, path, schema, strcmp(table, "lineup") == 0);
    char sql[1024];
    snprintf(sql, sizeof sql, "ATTACH '%s' AS source", catalog);
    check(sqlite3_exec(db, sql, 0, 0, 0), db, sql);
    snprintf(sql, sizeof sql, "BEGIN; INSERT INTO main.%s %s; COMMIT;", table, select);
    double start = now();
    check(sqlite3_exec(db, sql, 0, 0, 0), db, sql);
    printf("  %-14s one INSERT ... SELECT: %6.2f s\n", table, now() - start);
    sqlite3_close(db);
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s CATALOG SCRATCH_DIRECTORY [SAVEPOINT_EVERY]\n", argv[0]);
        return 2;
    }
    if (argc == 4) savepointEvery = atoi(argv[3]);
    const char *catalog = argv[1];
    char path[4096];
    snprintf(path, sizeof path, "%s/sqlite-floor.sqlite", argv[2]);
    sqlite3 *source;
    check(sqlite3_open_v2(catalog, &source, SQLITE_OPEN_READONLY, 0), source, catalog);
    // The schema as the catalog holds it, less what SQLite makes itself (its own tables,
    // and the shadow tables of the search index and the R*Tree).
    Rows schema = load(source, "SELECT sql FROM sqlite_schema s WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' "
                               "ESCAPE '\\' AND NOT EXISTS (SELECT 1 FROM sqlite_schema v "
                               "WHERE v.sql LIKE 'CREATE VIRTUAL TABLE%' AND s.name LIKE v.name || '\\_%' ESCAPE '\\') "
                               "ORDER BY rowid");
    size_t length = 1;
    for (int i = 0; i < schema.count; i++) length += strlen((const char *)sqlite3_value_text(schema.rows[i][0])) + 2;
    char *script = calloc(length, 1);
    for (int i = 0; i < schema.count; i++) {
        strcat(script, (const char *)sqlite3_value_text(schema.rows[i][0]));
        strcat(script, ";\n");
    }
    Rows events = load(source, "SELECT * FROM event ORDER BY id");
    Rows records = load(source, "SELECT * FROM source_record WHERE kind = 'event' ORDER BY id");
    Rows lineup = load(source, "SELECT * FROM lineup ORDER BY event_id, position");
    sqlite3_close(source);
    printf("SQLite %s, %d events", sqlite3_libversion(), events.count);
    if (savepointEvery) printf(", a savepoint every %d rows", savepointEvery);
    printf("\n");
    oneRowAtATime(catalog, path, script, "event", events, 1);
    oneRowAtATime(catalog, path, script, "source_record", records, 1);
    oneRowAtATime(catalog, path, script, "lineup", lineup, 0);
    allAtOnce(catalog, path, script, "event", "SELECT * FROM source.event");
    allAtOnce(catalog, path, script, "source_record", "SELECT * FROM source.source_record WHERE kind = 'event'");
    allAtOnce(catalog, path, script, "lineup", "SELECT * FROM source.lineup ORDER BY event_id, position");
    return 0;
}
