#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "termdata_sqlite_text.h"

enum ascii_test { ASCII_BEGINSWITH, ASCII_ENDSWITH, ASCII_CONTAINS, ASCII_EQUAL, ASCII_LIKE };

/// Every byte 0x01-0x7F but CR.
static int is_plain(const unsigned char *text, int length) {
    for (int i = 0; i < length; i++) {
        unsigned char byte = text[i];
        if (byte == 0 || byte >= 0x80 || byte == '\r') return 0;
    }
    return 1;
}

static inline unsigned char folded(unsigned char byte, int caseless) {
    return caseless && byte >= 'A' && byte <= 'Z' ? (unsigned char)(byte + ('a' - 'A')) : byte;
}

/// Whether `count` bytes of `a` and `b` are the same, case folded when `caseless`.
static int same(const unsigned char *a, const unsigned char *b, int count, int caseless) {
    for (int i = 0; i < count; i++) {
        if (folded(a[i], caseless) != folded(b[i], caseless)) return 0;
    }
    return 1;
}

/// LIKE as the evaluator's `LikePattern` matches it: `*` any run, `?` one character, `\`
/// the next one literally (a `\` at the end is itself). Greedy, with one backtrack point:
/// the last `*`.
static int like(const unsigned char *text, int length, const unsigned char *pattern, int count, int caseless) {
    int t = 0, p = 0, star = -1, starText = 0;
    while (t < length) {
        if (p < count) {
            unsigned char element = pattern[p];
            if (element == '*') {
                star = ++p;
                starText = t;
                continue;
            }
            if (element == '?') {
                p++, t++;
                continue;
            }
            int width = element == '\\' && p + 1 < count ? 2 : 1;
            if (folded(pattern[p + width - 1], caseless) == folded(text[t], caseless)) {
                p += width, t++;
                continue;
            }
        }
        if (star < 0) return 0;
        p = star;
        t = ++starText;
    }
    while (p < count && pattern[p] == '*') p++;
    return p == count;
}

static int test(enum ascii_test kind, const unsigned char *text, int length,
                const unsigned char *constant, int count, int caseless) {
    switch (kind) {
    case ASCII_BEGINSWITH:
        return count > 0 && count <= length && same(text, constant, count, caseless);
    case ASCII_ENDSWITH:
        return count > 0 && count <= length && same(text + length - count, constant, count, caseless);
    case ASCII_CONTAINS:
        if (count == 0) return 0;
        for (int start = 0; start + count <= length; start++) {
            if (same(text + start, constant, count, caseless)) return 1;
        }
        return 0;
    case ASCII_EQUAL:
        return count == length && same(text, constant, count, caseless);
    case ASCII_LIKE:
        return like(text, length, constant, count, caseless);
    }
    return 0;
}

static void ascii_test_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    switch (sqlite3_value_type(argv[0])) {
    case SQLITE_NULL:
        sqlite3_result_int(context, 0);
        return;
    case SQLITE_TEXT:
        break;
    default:
        sqlite3_result_null(context);
        return;
    }
    const unsigned char *text = sqlite3_value_text(argv[0]);
    int length = sqlite3_value_bytes(argv[0]);
    if (sqlite3_value_type(argv[1]) != SQLITE_TEXT) {
        sqlite3_result_null(context);
        return;
    }
    const unsigned char *constant = sqlite3_value_text(argv[1]);
    int count = sqlite3_value_bytes(argv[1]);
    if (!text || !constant) {   // out of memory, making the text
        sqlite3_result_error_nomem(context);
        return;
    }
    if (!is_plain(text, length) || !is_plain(constant, count)) {
        sqlite3_result_null(context);
        return;
    }
    enum ascii_test kind = (enum ascii_test)(intptr_t)sqlite3_user_data(context);
    sqlite3_result_int(context, test(kind, text, length, constant, count, sqlite3_value_int(argv[2]) != 0));
}

int termdata_sqlite_register_ascii_tests(void *db) {
    static const struct { const char *name; enum ascii_test kind; } tests[] = {
        { "td_ascii_beginswith", ASCII_BEGINSWITH },
        { "td_ascii_endswith", ASCII_ENDSWITH },
        { "td_ascii_contains", ASCII_CONTAINS },
        { "td_ascii_equal", ASCII_EQUAL },
        { "td_ascii_like", ASCII_LIKE },
    };
    for (unsigned i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        int result = sqlite3_create_function_v2((sqlite3 *)db, tests[i].name, 3,
                                                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                                (void *)(intptr_t)tests[i].kind, ascii_test_function, 0, 0, 0);
        if (result != SQLITE_OK) return result;
    }
    return SQLITE_OK;
}

struct placed_collation {
    unsigned char places[256];
    termdata_text_order fallback;
};

static int all_placed(const unsigned char *places, const unsigned char *text, int count) {
    for (int i = 0; i < count; i++) {
        if (places[text[i]] == 0) return 0;
    }
    return 1;
}

static int placed_compare(void *context, int count1, const void *text1, int count2, const void *text2) {
    const struct placed_collation *collation = context;
    const unsigned char *a = text1, *b = text2;
    // Every byte first: a later one without a place (a combining mark) could change how an
    // earlier one sorts, so only texts placed whole are compared here.
    if (!all_placed(collation->places, a, count1) || !all_placed(collation->places, b, count2)) {
        return collation->fallback(count1, text1, count2, text2);
    }
    int shorter = count1 < count2 ? count1 : count2;
    for (int i = 0; i < shorter; i++) {
        unsigned char p = collation->places[a[i]], q = collation->places[b[i]];
        if (p != q) return p < q ? -1 : 1;
    }
    return count1 == count2 ? 0 : count1 < count2 ? -1 : 1;
}

int termdata_sqlite_register_placed_collation(void *db, const char *name, const unsigned char *places,
                                              termdata_text_order fallback) {
    struct placed_collation *collation = malloc(sizeof *collation);
    if (!collation) return SQLITE_NOMEM;
    memcpy(collation->places, places, sizeof collation->places);
    collation->fallback = fallback;
    return sqlite3_create_collation_v2((sqlite3 *)db, name, SQLITE_UTF8, collation, placed_compare, free);
}
