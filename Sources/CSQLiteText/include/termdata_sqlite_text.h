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

#endif
