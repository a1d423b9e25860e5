#ifndef TERMDATA_SQLITE_TEXT_H
#define TERMDATA_SQLITE_TEXT_H

/// Registers, on one SQLite connection (a `sqlite3 *`), the text tests of a predicate for
/// plain ASCII text, each called as `name(value, constant, caseInsensitive)`:
///
/// - `td_ascii_beginswith`, `td_ascii_endswith`, `td_ascii_contains`: BEGINSWITH, ENDSWITH,
///   CONTAINS; an empty constant is never a match.
/// - `td_ascii_equal`: `==`.
/// - `td_ascii_like`: LIKE, with the predicate's own pattern (`*`, `?`, `\` escapes).
///
/// Each gives 1 or 0 where the value is text and both it and the constant are plain ASCII:
/// every byte 0x01-0x7F but CR. There a character is a byte and a grapheme (CR LF, the one
/// ASCII pair that is a single character, is left out, and so is NUL), nothing carries a
/// diacritic, and case folding maps `A`-`Z` to `a`-`z` alone, so the bytes give the answer
/// evaluation in memory gives, under `[c]`, `[d]` and `[cd]` alike. A NULL value gives 0, as
/// nil matches no text test. Any other value or constant gives NULL: the caller then asks
/// the evaluator's own function. Returns SQLite's result code.
int termdata_sqlite_register_ascii_tests(void *db);

/// Compares two texts of `count1` and `count2` bytes of UTF-8: negative, zero or positive.
typedef int (*termdata_text_order)(int count1, const void *text1, int count2, const void *text2);

/// Registers, on one SQLite connection, the collation `name` that orders texts whose every
/// byte has a place in `places` (256 entries, 0 for a byte without one) by those places, byte
/// by byte, a shorter text before a longer one it begins; any other pair goes to `fallback`.
/// The places are copied. Returns SQLite's result code.
int termdata_sqlite_register_placed_collation(void *db, const char *name, const unsigned char *places,
                                              termdata_text_order fallback);

#endif
