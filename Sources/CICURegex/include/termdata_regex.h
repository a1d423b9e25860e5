#ifndef TERMDATA_REGEX_H
#define TERMDATA_REGEX_H

#include <stdint.h>

/// A compiled ICU regular expression, opaque to Swift.
typedef struct termdata_regex termdata_regex;

/// Compiles `pattern` (UTF-16) with the flags below; NULL when it does not compile.
termdata_regex *termdata_regex_compile(const uint16_t *pattern, int32_t length, uint32_t flags);

/// 1 when the whole of `text` (UTF-16) matches, 0 when it does not, -1 when the engine gave
/// up (its time or backtracking stack limit), -2 on any other failure.
int32_t termdata_regex_matches(termdata_regex *regex, const uint16_t *text, int32_t length);

void termdata_regex_free(termdata_regex *regex);

enum {
    TERMDATA_REGEX_CASE_INSENSITIVE = 2,
    TERMDATA_REGEX_MULTILINE = 8,
    TERMDATA_REGEX_DOTALL = 32,
};

#endif
